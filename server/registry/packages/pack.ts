import fs from "node:fs/promises";
import path from "node:path";
import type { PackedMeta } from "@/server/spec";
import type { RegistrySnapshot } from "../types";
import { graphVariables } from "../variables";
import { collectAgentGraph, PackRefusedError } from "./collect";
import { PACKAGE_DEFINITIONS_DIR, PACKED_META_FILE } from "./package-json";
import { packageReadme } from "./readme";
import { signFiles } from "./signature";

export interface PackOptions {
  /** npm package name; default: the agent's `packageName`. */
  packageName?: string;
  /** Default: the agent's `version`, else 0.1.0. */
  version?: string;
  /** Folder to write the package into (created; must be empty or absent). */
  outDir: string;
}

export interface PackResult {
  dir: string;
  meta: PackedMeta;
  /** Files written, relative to `dir`. */
  files: string[];
}

const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Packs `agentName` and everything it reaches into an npm package folder: package.json (`standardagent.entryAgents`),
 * the definition files under `agents/`, a README from the descriptions, and `standardagent.json` (PackedMeta with the
 * contents' signature). Refuses with PackRefusedError what cannot be packed.
 */
export async function packAgent(snap: RegistrySnapshot, agentName: string, options: PackOptions): Promise<PackResult> {
  const graph = await collectAgentGraph(snap, agentName);
  const agent = snap.agents.get(agentName)!.definition;
  const packageId = options.packageName ?? agent.packageName;
  const version = options.version ?? agent.version ?? "0.1.0";
  if (!packageId) throw new PackRefusedError([`The agent "${agentName}" has no packageName: add \`packageName: "@scope/name"\` to ${snap.agents.get(agentName)!.file}, or pass --name.`]);
  if (!NPM_NAME.test(packageId)) throw new PackRefusedError([`"${packageId}" is not a valid npm package name: use lower case letters, digits, "-", "." and "_", optionally under a scope (@scope/name).`]);
  if (!SEMVER.test(version)) throw new PackRefusedError([`"${version}" is not a semver version: use MAJOR.MINOR.PATCH such as 1.0.0.`]);
  const existing = await fs.readdir(options.outDir).catch(() => []);
  if (existing.length > 0) throw new PackRefusedError([`${options.outDir} is not empty: pack into a new folder.`]);

  const contents = new Map<string, Buffer | string>();
  for (const file of graph.files) contents.set(`${PACKAGE_DEFINITIONS_DIR}/${file}`, await fs.readFile(path.join(snap.dir, file)));
  const variables = graphVariables(snap, agentName).variables.map((v) => ({
    name: v.name,
    type: v.type,
    required: v.required,
    ...(v.description ? { description: v.description } : {}),
  }));
  contents.set("README.md", packageReadme(snap, packageId, version, agentName, graph, variables));
  const meta: PackedMeta = {
    packageId,
    version,
    entryAgents: [agentName],
    definitions: graph.definitions,
    routes: graph.routes,
    variables,
    packedAt: new Date().toISOString(),
    signature: signFiles(contents),
  };
  const packageJson = {
    name: packageId,
    version,
    description: agent.description ?? agent.title ?? `The ${agentName} agent graph`,
    ...(agent.author ? { author: agent.author } : {}),
    license: agent.license ?? "UNLICENSED",
    keywords: ["standardagent", "agent"],
    files: [PACKAGE_DEFINITIONS_DIR, "README.md", PACKED_META_FILE],
    standardagent: { entryAgents: [agentName], definitions: PACKAGE_DEFINITIONS_DIR, meta: PACKED_META_FILE },
  };
  contents.set(PACKED_META_FILE, `${JSON.stringify(meta, null, 2)}\n`);
  contents.set("package.json", `${JSON.stringify(packageJson, null, 2)}\n`);
  for (const [file, data] of contents) {
    const abs = path.join(options.outDir, file);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, data);
  }
  return { dir: options.outDir, meta, files: [...contents.keys()].sort() };
}
