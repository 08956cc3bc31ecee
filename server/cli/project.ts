import path from "node:path";
import { loadRegistry, type RegistrySnapshot } from "@/server/registry";

/** Where the studio's own sources are (the spec module definition files import), whatever the current folder is. */
export const STUDIO_ROOT = path.resolve(import.meta.dirname, "../..");

/** The project a command works on: the current folder, its AGENTS_DIR and its node_modules. */
export interface CliProject {
  /** Absolute project folder (the current working directory). */
  root: string;
  /** Absolute AGENTS_DIR (`--dir`, else the AGENTS_DIR variable, else `<root>/agents`). */
  agentsDir: string;
}

export function resolveProject(cwd: string, dirOption: string | undefined, env: NodeJS.ProcessEnv): CliProject {
  const root = path.resolve(cwd);
  const agentsDir = path.resolve(root, dirOption ?? env.AGENTS_DIR ?? "agents");
  return { root, agentsDir };
}

/** Loads the project's definitions through the registry, exactly as the server does at start. */
export function loadProject(project: CliProject): Promise<RegistrySnapshot> {
  return loadRegistry({
    dir: project.agentsDir,
    projectRoot: project.root,
    specModulePath: path.join(STUDIO_ROOT, "server/spec/index.ts"),
  });
}

/** What a command prints and its exit code; commands never call `process.exit` themselves. */
export interface CommandOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A command's failure with the text to show (no stack): bad arguments, a refused pack, a failed publish. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
