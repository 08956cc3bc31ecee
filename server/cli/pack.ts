import path from "node:path";
import { packAgent, PackRefusedError, type PackResult } from "@/server/registry";
import { runNpm } from "./npm";
import { CliError, loadProject, type CliProject, type CommandOutput } from "./project";

export interface PackCommandOptions {
  name?: string;
  version?: string;
  out?: string;
  tarball?: boolean;
}

/**
 * The default output folder: `<project>/.tmp/packages/<name>-<version>` (`@scope/kit` → `scope-kit`); `.tmp/` is
 * outside git, the linter and the type check, so packed copies are never checked twice.
 */
function defaultOut(project: CliProject, packageId: string, version: string): string {
  return path.join(project.root, ".tmp", "packages", `${packageId.replace(/^@/, "").replace(/\//g, "-")}-${version}`);
}

/** Packs an agent of the project into a package folder (and a tarball with `tarball`). Throws CliError when refused. */
export async function packProject(project: CliProject, agent: string, options: PackCommandOptions, env: NodeJS.ProcessEnv): Promise<PackResult & { tarball?: string }> {
  const snap = await loadProject(project);
  const record = snap.agents.get(agent);
  const packageId = options.name ?? record?.definition.packageName ?? "";
  const version = options.version ?? record?.definition.version ?? "0.1.0";
  const outDir = path.resolve(project.root, options.out ?? defaultOut(project, packageId || agent, version));
  let result: PackResult;
  try {
    result = await packAgent(snap, agent, { outDir, version, ...(options.name ? { packageName: options.name } : {}) });
  } catch (error) {
    if (error instanceof PackRefusedError) throw new CliError(error.message);
    throw error;
  }
  if (!options.tarball) return result;
  const packed = await runNpm(["pack", "--json", "--pack-destination", path.dirname(outDir)], outDir, env);
  const [info] = JSON.parse(packed.stdout) as { filename: string }[];
  return { ...result, tarball: path.join(path.dirname(outDir), info!.filename) };
}

/** `studio pack <agent>`: prints what was packed and where. */
export async function packCommand(project: CliProject, io: CommandOutput, agent: string | undefined, options: PackCommandOptions, env: NodeJS.ProcessEnv): Promise<number> {
  if (!agent) throw new CliError("Name the agent to pack: studio pack <agent> [--name @scope/pkg] [--version 1.0.0] [--out folder] [--tarball]", 2);
  const result = await packProject(project, agent, options, env);
  const { meta } = result;
  const count = Object.values(meta.definitions).reduce((n, list) => n + list.length, 0);
  io.out(`Packed ${meta.packageId}@${meta.version} (entry agent ${agent}): ${count} definitions, ${meta.routes.length} endpoint file(s), ${result.files.length} files.`);
  io.out(`Folder: ${path.relative(project.root, result.dir) || "."}`);
  if (result.tarball) io.out(`Tarball: ${path.relative(project.root, result.tarball)}`);
  io.out(`Signature: sha256 ${meta.signature.digest}`);
  return 0;
}
