import fs from "node:fs/promises";
import path from "node:path";
import { agentPackageJsonSchema, type AgentPackageJson } from "./package-json";

/** A packed agent graph found at load time. */
export interface DiscoveredPackage {
  /** The package name, which is the namespace of its definitions. */
  id: string;
  version?: string;
  /** `packed`: a local copy under AGENTS_DIR/packed/<pkg>; `node_modules`: installed next to AGENTS_DIR. */
  source: "packed" | "node_modules";
  /** Absolute package folder. */
  root: string;
  /** Absolute folder of its definitions (AGENTS_DIR layout). */
  definitionsDir: string;
  entryAgents: string[];
}

/** Folder under AGENTS_DIR that holds local copies of packages (`packed/<pkg>` or `packed/@scope/<pkg>`). */
export const PACKED_DIR = "packed";

async function readPackage(root: string, source: DiscoveredPackage["source"]): Promise<DiscoveredPackage | null> {
  const text = await fs.readFile(path.join(root, "package.json"), "utf8").catch(() => null);
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = agentPackageJsonSchema.safeParse(json);
  if (!parsed.success) return null;
  const pkg: AgentPackageJson = parsed.data;
  return {
    id: pkg.name,
    ...(pkg.version ? { version: pkg.version } : {}),
    source,
    root,
    definitionsDir: path.resolve(root, pkg.standardagent.definitions),
    entryAgents: pkg.standardagent.entryAgents,
  };
}

/** Package folders directly under `dir`, descending one level into `@scope` folders. */
async function packageFolders(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith(".") || !(e.isDirectory() || e.isSymbolicLink())) continue;
    if (!e.name.startsWith("@")) {
      out.push(path.join(dir, e.name));
      continue;
    }
    const scoped = await fs.readdir(path.join(dir, e.name), { withFileTypes: true }).catch(() => []);
    for (const s of scoped.sort((a, b) => a.name.localeCompare(b.name))) if (s.isDirectory() || s.isSymbolicLink()) out.push(path.join(dir, e.name, s.name));
  }
  return out;
}

/**
 * Finds packed agent graphs: package folders whose package.json has `standardagent.entryAgents`, first under
 * `AGENTS_DIR/packed/`, then in the `node_modules` folder next to AGENTS_DIR. A local copy wins over an installed
 * package of the same name (the installed one is then listed in `shadowed`).
 */
export async function discoverPackages(agentsDir: string): Promise<{ packages: DiscoveredPackage[]; shadowed: DiscoveredPackage[] }> {
  const packages: DiscoveredPackage[] = [];
  const shadowed: DiscoveredPackage[] = [];
  const sources: [string, DiscoveredPackage["source"]][] = [
    [path.join(agentsDir, PACKED_DIR), "packed"],
    [path.join(path.dirname(agentsDir), "node_modules"), "node_modules"],
  ];
  for (const [dir, source] of sources) {
    for (const folder of await packageFolders(dir)) {
      const pkg = await readPackage(folder, source);
      if (!pkg) continue;
      if (packages.some((p) => p.id === pkg.id)) shadowed.push(pkg);
      else packages.push(pkg);
    }
  }
  return { packages, shadowed };
}
