import fs from "node:fs/promises";
import path from "node:path";
import type { CliProject, CommandOutput } from "./project";
import { SCAFFOLD_DOCS, SCAFFOLD_INDEX } from "./scaffold-docs";

/**
 * `studio scaffold`: creates AGENTS_DIR's folders with a short AGENTS.md reference in each. Existing files are kept
 * (an AGENTS.md is never overwritten), and the command says which it created and which it kept.
 */
export async function scaffoldCommand(project: CliProject, io: CommandOutput): Promise<number> {
  const files: [string, string][] = [["AGENTS.md", SCAFFOLD_INDEX], ...Object.entries(SCAFFOLD_DOCS).map(([folder, text]): [string, string] => [`${folder}/AGENTS.md`, text])];
  const created: string[] = [];
  const kept: string[] = [];
  for (const [rel, text] of files) {
    const abs = path.join(project.agentsDir, rel);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    try {
      await fs.writeFile(abs, text, { flag: "wx" });
      created.push(rel);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      kept.push(rel);
    }
  }
  const where = path.relative(project.root, project.agentsDir) || ".";
  io.out(`${where}: created ${created.length} file(s)${created.length ? `: ${created.join(", ")}` : ""}.`);
  if (kept.length) io.out(`Kept ${kept.length} existing file(s): ${kept.join(", ")}.`);
  return 0;
}
