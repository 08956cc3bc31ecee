import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "@/shared/diagnostic";
import { loadRegistry } from "./registry";
import type { RegistrySnapshot } from "./types";

/** Project root and spec path as the composition root passes them (tests run from the repository root). */
export const projectRoot = path.resolve(import.meta.dirname, "../..");
export const specModulePath = path.join(projectRoot, "server/spec/index.ts");

/** Writes `files` (paths relative to the new folder) into a fresh temporary AGENTS_DIR and returns its path. */
export async function makeAgentsDir(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "registry-test-"));
  await writeFiles(dir, files);
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, content);
  }
}

export async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

/** Loads a temporary AGENTS_DIR built from `files`, then removes it. */
export async function loadFiles(files: Record<string, string>): Promise<RegistrySnapshot> {
  const dir = await makeAgentsDir(files);
  try {
    return await loadRegistry({ dir, projectRoot, specModulePath });
  } finally {
    await removeDir(dir);
  }
}

/** `export default <helper>(<object literal>)` with the import line. */
export function def(helper: string, body: string, extraImports = ""): string {
  return `import { ${helper} } from "@studio/spec";\nimport { z } from "zod";\n${extraImports}\nexport default ${helper}(${body});\n`;
}

export const model = (name: string, extra = "") =>
  def("defineModel", `{ name: ${JSON.stringify(name)}, provider: "openai", model: "gpt-4.1-mini"${extra ? `, ${extra}` : ""} }`);

export const prompt = (name: string, extra = "", modelName = "m") =>
  def("definePrompt", `{ name: ${JSON.stringify(name)}, toolDescription: "does ${name}", model: ${JSON.stringify(modelName)}, prompt: "You are ${name}."${extra ? `, ${extra}` : ""} }`);

export const tool = (extra = "", args = "z.object({ text: z.string() })") =>
  def("defineTool", `{ description: "a tool", args: ${args}, execute: async () => "ok"${extra ? `, ${extra}` : ""} }`);

export const agent = (name: string, body: string) => def("defineAgent", `{ name: ${JSON.stringify(name)}, ${body} }`);

/** A small valid graph: model `m`, prompt `p` (tool `t`), ai_human agent `a`. */
export function baseGraph(): Record<string, string> {
  return {
    "models/m.ts": model("m"),
    "prompts/p.ts": prompt("p", `tools: ["t"]`),
    "tools/t.ts": tool(),
    "agents/a.ts": agent("a", `sideA: { prompt: "p" }`),
  };
}

/** Diagnostics of one file. */
export function diagnosticsOf(snapshot: RegistrySnapshot, file: string): Diagnostic[] {
  return snapshot.diagnostics.filter((d) => d.file === file);
}

/** The only diagnostic matching `field` in `file`; throws with the full list when there is not exactly one. */
export function single(snapshot: RegistrySnapshot, file: string, field: string): Diagnostic {
  const found = snapshot.diagnostics.filter((d) => d.file === file && d.field === field);
  if (found.length !== 1) {
    throw new Error(`expected one diagnostic for ${file} ${field}, got ${found.length}:\n${JSON.stringify(snapshot.diagnostics, null, 2)}`);
  }
  return found[0]!;
}
