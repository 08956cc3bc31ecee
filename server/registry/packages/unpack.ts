import fs from "node:fs/promises";
import path from "node:path";
import { agentPackageJsonSchema } from "./package-json";

export interface UnpackedFile {
  /** Relative to AGENTS_DIR, `/` separators. */
  file: string;
  /** `copied`: written; `identical`: the same bytes were there; `kept`: a different file was there and is kept. */
  status: "copied" | "identical" | "kept";
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(abs, base)));
    else if (e.isFile()) out.push(path.relative(base, abs).split(path.sep).join("/"));
  }
  return out.sort();
}

/**
 * Copies a package's definition files (its `standardagent.definitions` folder) into `agentsDir`, never overwriting:
 * each file is reported as copied, identical or kept. The copies are plain, editable definitions of the root graph.
 */
export async function unpackPackage(packageRoot: string, agentsDir: string): Promise<UnpackedFile[]> {
  const json = agentPackageJsonSchema.parse(JSON.parse(await fs.readFile(path.join(packageRoot, "package.json"), "utf8")));
  const source = path.resolve(packageRoot, json.standardagent.definitions);
  const report: UnpackedFile[] = [];
  for (const file of await listFiles(source)) {
    const data = await fs.readFile(path.join(source, file));
    const target = path.join(agentsDir, file);
    const existing = await fs.readFile(target).catch(() => null);
    if (existing) {
      report.push({ file, status: existing.equals(data) ? "identical" : "kept" });
      continue;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, data);
    report.push({ file, status: "copied" });
  }
  return report;
}
