import path from "node:path";
import type { Diagnostic } from "@/shared/diagnostic";
import { DiagnosticSink } from "../diagnostics";
import { linkRoutes } from "../link-routes";
import { loadDefinitionFiles, type LoaderOptions, type LoadResult } from "../loader";
import type { RouteRecord } from "../types";
import { validateFiles, type ValidatedSet } from "../validate";
import { discoverPackages, type DiscoveredPackage } from "./discover";
import { qualifyPackage } from "./namespace";
import { verifyPackage } from "./verify";

/** A discovered package with its files loaded (paths relative to AGENTS_DIR, so diagnostics point at them). */
export interface LoadedPackage extends DiscoveredPackage {
  load: LoadResult;
  /** Its files' prefix relative to AGENTS_DIR (`packed/@scope/kit/agents/`, `../node_modules/@scope/kit/agents/`). */
  prefix: string;
}

/** Installed or local packages summarised for the snapshot (the editor labels their definitions with `id`). */
export interface PackageInfo {
  id: string;
  version?: string;
  source: DiscoveredPackage["source"];
  /** Folder relative to AGENTS_DIR. */
  folder: string;
  entryAgents: string[];
  /** Installed copies not used because a local copy under packed/ has the same name. */
  shadowed: boolean;
}

const slash = (p: string) => p.split(path.sep).join("/");
const prefixed = <T extends { file: string }>(prefix: string, item: T): T => ({ ...item, file: item.file ? prefix + item.file : prefix });

/** Discovers the packages (AGENTS_DIR/packed, then node_modules next to it) and loads each one's definition files. */
export async function loadPackages(options: LoaderOptions): Promise<{ packages: LoadedPackage[]; infos: PackageInfo[] }> {
  const { packages, shadowed } = await discoverPackages(options.dir);
  const loaded: LoadedPackage[] = [];
  for (const pkg of packages) {
    const prefix = `${slash(path.relative(options.dir, pkg.definitionsDir))}/`;
    const load = await loadDefinitionFiles({ ...options, dir: pkg.definitionsDir });
    const tampered = await verifyPackage(pkg, slash(path.relative(options.dir, path.join(pkg.root, "package.json"))));
    if (tampered) load.diagnostics.push(tampered);
    loaded.push({
      ...pkg,
      prefix,
      load: {
        files: load.files.map((f) => prefixed(prefix, f)),
        found: load.found.map((f) => prefixed(prefix, f)),
        routes: load.routes,
        diagnostics: load.diagnostics.map((d) => (d === tampered ? d : prefixed(prefix, d))),
      },
    });
  }
  const info = (p: DiscoveredPackage, isShadowed: boolean): PackageInfo => ({
    id: p.id,
    ...(p.version ? { version: p.version } : {}),
    source: p.source,
    folder: slash(path.relative(options.dir, p.root)),
    entryAgents: p.entryAgents,
    shadowed: isShadowed,
  });
  return { packages: loaded, infos: [...packages.map((p) => info(p, false)), ...shadowed.map((p) => info(p, true))] };
}

/** Validates a package's files and puts them in its namespace (`packageId/name`). */
export function validatePackage(pkg: LoadedPackage, sink: DiagnosticSink): ValidatedSet {
  for (const d of pkg.load.diagnostics) sink.add(d);
  return qualifyPackage(validateFiles(pkg.load.files, sink), pkg.id);
}

/**
 * Mounts a package's thread endpoints below `/packages/<packageId>` under the thread
 * (`/api/threads/:threadId/packages/@scope/kit/notes`), so packages never collide with each other or the root graph.
 */
export function linkPackageRoutes(pkg: LoadedPackage, sink: DiagnosticSink): RouteRecord[] {
  const own = new DiagnosticSink();
  const { endpoints } = linkRoutes(pkg.load.routes.filter((r) => r.kind === "api"), own);
  for (const d of own.items) sink.add(prefixed(pkg.prefix, d) as Diagnostic);
  return endpoints.map((r) => ({ ...r, route: `/packages/${pkg.id}${r.route === "/" ? "" : r.route}`, file: pkg.prefix + r.file, package: pkg.id }));
}
