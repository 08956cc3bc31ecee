import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeLargeRegistry, type FixtureCounts } from "../../bench/editor-graph-fixture";
import { E2E_PORT, E2E_ROOT } from "../env";

/**
 * A second app server whose AGENTS_DIR holds a generated registry large enough for the editor's overview canvas
 * (read-only: the journeys only look), on its own port and data; it serves the build the main server already made.
 */
export class LargeGraphServer {
  readonly port = E2E_PORT + 59;
  readonly url = `http://127.0.0.1:${this.port}`;
  readonly root = path.join(E2E_ROOT, "large-graph");
  readonly agentsDir = path.join(this.root, "agents");
  definitions = 0;
  private child: ChildProcess | undefined;

  constructor(private readonly counts: FixtureCounts) {}

  async start(): Promise<void> {
    const projectRoot = path.resolve(import.meta.dirname, "../..");
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.mkdirSync(path.join(this.root, "data"), { recursive: true });
    this.definitions = writeLargeRegistry(this.agentsDir, this.counts);
    this.child = spawn(path.join(projectRoot, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
      cwd: projectRoot,
      stdio: "ignore",
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        DATA_DIR: path.join(this.root, "data"),
        DATABASE_URL: "",
        AGENTS_DIR: this.agentsDir,
        DEFINITIONS_READONLY: "1",
        PORT: String(this.port),
        HOST: "127.0.0.1",
      },
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        if ((await fetch(`${this.url}/api/health`)).ok) return;
      } catch {}
      if (Date.now() > deadline) throw new Error(`the large-graph server on ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  }
}
