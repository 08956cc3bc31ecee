import fs from "node:fs/promises";
import path from "node:path";
import { NAME_TYPES_FILE, nameTypesDeclaration } from "@/server/registry";
import { loadProject, type CliProject, type CommandOutput } from "./project";

/**
 * `studio types`: writes `<AGENTS_DIR>/studio-names.d.ts` (or `--out`) with union types of every definition name.
 * The file is written only when its text changes. Returns 1 (and writes nothing) when the definitions have errors,
 * since names of a broken graph would mislead.
 */
export async function typesCommand(project: CliProject, io: CommandOutput, options: { out?: string } = {}): Promise<number> {
  const snap = await loadProject(project);
  const errors = snap.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    io.err(`${errors.length} definition error(s): run \`studio validate\` to see them; no types written.`);
    return 1;
  }
  const target = path.resolve(project.root, options.out ?? path.join(project.agentsDir, NAME_TYPES_FILE));
  const text = nameTypesDeclaration(snap);
  const before = await fs.readFile(target, "utf8").catch(() => null);
  if (before === text) {
    io.out(`${path.relative(project.root, target)} is up to date.`);
    return 0;
  }
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, text);
  io.out(`Wrote ${path.relative(project.root, target)} (${snap.agents.size} agents, ${snap.prompts.size} prompts, ${snap.models.size} models, ${snap.tools.size} tools, ${snap.hooks.size} hooks).`);
  return 0;
}
