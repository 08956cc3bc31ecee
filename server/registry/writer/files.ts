/** File helpers of the definition writer: content hashes, atomic writes, prettier formatting. Node only. */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Options as PrettierOptions } from "prettier";

/** A short content hash, to notice that a file changed since the editor read it. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** Writes `text` to `absPath` through a temporary file in the same folder and a rename, so readers never see half a file. */
export async function writeAtomic(absPath: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(absPath), { recursive: true });
  const tmp = path.join(path.dirname(absPath), `.${path.basename(absPath)}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await fs.writeFile(tmp, text, "utf8");
    await fs.rename(tmp, absPath);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}

export async function readText(absPath: string): Promise<string | undefined> {
  try {
    return await fs.readFile(absPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

let prettierModule: Promise<typeof import("prettier")> | undefined;
const loadPrettier = () => (prettierModule ??= import("prettier"));

/** Formats TypeScript with the project's prettier configuration (`.prettierrc.json` in `projectRoot`). */
export class Formatter {
  private options: Promise<PrettierOptions> | undefined;
  constructor(private readonly projectRoot: string) {}

  private resolveOptions(): Promise<PrettierOptions> {
    this.options ??= loadPrettier().then(async (prettier) => {
      const found = await prettier.resolveConfig(path.join(this.projectRoot, "definition.ts")).catch(() => null);
      return { printWidth: 120, ...(found ?? {}), parser: "typescript" };
    });
    return this.options;
  }

  async format(text: string): Promise<string> {
    const prettier = await loadPrettier();
    return prettier.format(text, await this.resolveOptions());
  }

  /** True when prettier would leave `text` as it is (then the whole file may be formatted after an edit). */
  async isFormatted(text: string): Promise<boolean> {
    const prettier = await loadPrettier();
    try {
      return await prettier.check(text, await this.resolveOptions());
    } catch {
      return false;
    }
  }
}
