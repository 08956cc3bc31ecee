import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { E2E_AGENTS_DIR, E2E_PORT } from "../env";

/** The browser tests' AGENTS_DIR: read files, and put it back as it was after a journey that writes to it. */
export class AgentsDir {
  private saved = new Map<string, string>();

  constructor(readonly dir = E2E_AGENTS_DIR) {}

  file(rel: string): string {
    return path.join(this.dir, ...rel.split("/"));
  }
  read(rel: string): string {
    return fs.readFileSync(this.file(rel), "utf8");
  }
  exists(rel: string): boolean {
    return fs.existsSync(this.file(rel));
  }
  write(rel: string, text: string): void {
    fs.writeFileSync(this.file(rel), text);
  }

  /** Every definition file, relative path → text. */
  list(): Map<string, string> {
    const out = new Map<string, string>();
    for (const kind of fs.readdirSync(this.dir)) {
      const folder = path.join(this.dir, kind);
      if (!fs.statSync(folder).isDirectory()) continue;
      for (const name of fs.readdirSync(folder)) if (name.endsWith(".ts")) out.set(`${kind}/${name}`, fs.readFileSync(path.join(folder, name), "utf8"));
    }
    return out;
  }

  snapshot(): void {
    this.saved = this.list();
  }

  /** Restores the snapshot (removes added files, rewrites changed ones) and waits until the server reloaded it. */
  async restore(): Promise<void> {
    const now = this.list();
    for (const rel of now.keys()) if (!this.saved.has(rel)) fs.rmSync(this.file(rel));
    for (const [rel, text] of this.saved) if (now.get(rel) !== text) fs.writeFileSync(this.file(rel), text);
    await expect.poll(async () => (await diagnostics()).length, { timeout: 15_000 }).toBe(0);
  }
}

/** The registry's diagnostics, from the REST API. */
export async function diagnostics(base = `http://127.0.0.1:${E2E_PORT}`): Promise<Array<{ file: string; field: string; message: string }>> {
  const res = await fetch(`${base}/api/diagnostics`);
  const body = (await res.json()) as { diagnostics: Array<{ file: string; field: string; message: string }> };
  return body.diagnostics;
}
