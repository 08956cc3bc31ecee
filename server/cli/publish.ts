import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runNpm } from "./npm";
import { packProject, type PackCommandOptions } from "./pack";
import { CliError, type CliProject, type CommandOutput } from "./project";

export interface PublishOptions extends PackCommandOptions {
  dryRun?: boolean;
  /** Registry URL; default: the npm client's configured registry. */
  registry?: string;
  /** npm dist-tag (default `latest`). */
  tag?: string;
}

/**
 * `studio publish <agent>`: packs the agent into a fresh folder and runs `npm publish` on it (with `--dry-run`, npm
 * checks and lists the package without uploading). Credentials come from the npm client's own configuration
 * (.npmrc / npm login); this command never reads or prints them.
 */
export async function publishCommand(project: CliProject, io: CommandOutput, agent: string | undefined, options: PublishOptions, env: NodeJS.ProcessEnv): Promise<number> {
  if (!agent) throw new CliError("Name the agent to publish: studio publish <agent> [--name @scope/pkg] [--version 1.0.0] [--registry URL] [--dry-run]", 2);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "studio-publish-"));
  try {
    const packed = await packProject(project, agent, { ...options, out: path.join(scratch, "package"), tarball: false }, env);
    const args = ["publish", "--json"];
    if (packed.meta.packageId.startsWith("@")) args.push("--access", "public");
    if (options.registry) args.push("--registry", options.registry);
    if (options.tag) args.push("--tag", options.tag);
    if (options.dryRun) args.push("--dry-run");
    const run = await runNpm(args, packed.dir, env);
    const target = options.registry ?? (await runNpm(["config", "get", "registry"], packed.dir, env)).stdout.trim();
    const summary = parseSummary(run.stdout);
    const files = summary?.files?.length ?? packed.files.length;
    io.out(
      options.dryRun
        ? `Dry run: ${packed.meta.packageId}@${packed.meta.version} (${files} files) would be published to ${target}; nothing was uploaded.`
        : `Published ${packed.meta.packageId}@${packed.meta.version} (${files} files) to ${target}.`,
    );
    io.out(`Install it next to an agents/ folder with: npm install ${packed.meta.packageId}@${packed.meta.version}${options.registry ? ` --registry ${options.registry}` : ""}`);
    return 0;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

function parseSummary(stdout: string): { files?: unknown[] } | null {
  const start = stdout.indexOf("{");
  if (start < 0) return null;
  try {
    const json = JSON.parse(stdout.slice(start)) as Record<string, unknown>;
    const inner = Object.values(json).find((v) => typeof v === "object" && v !== null && "files" in v) as { files?: unknown[] } | undefined;
    return inner ?? (json as { files?: unknown[] });
  } catch {
    return null;
  }
}
