import type { Diagnostic } from "@/shared/diagnostic";
import { DiagnosticSink, sortDiagnostics } from "./diagnostics";
import { linkDefinitions } from "./link";
import { linkRoutes } from "./link-routes";
import { loadDefinitionFiles, type FoundFile, type LoaderOptions, type LoadResult } from "./loader";
import { validateEvalFiles } from "./evals";
import { validateMcpFiles } from "./mcp-servers";
import { linkPackageRoutes, loadPackages, validatePackage, type LoadedPackage, type PackageInfo } from "./packages/load-packages";
import { mergeValidated, packageOf } from "./packages/merge";
import { checkModelProviders, linkProviders } from "./provider-loader";
import type { DefinitionFileInfo, RegistrySnapshot } from "./types";
import { validateFiles } from "./validate";

/** A Map whose mutating methods throw once built, so a published snapshot cannot change under its readers. */
class FrozenMap<K, V> extends Map<K, V> {
  private sealed = false;
  constructor(entries: Iterable<readonly [K, V]>) {
    super(entries);
    this.sealed = true;
  }
  override set(key: K, value: V): this {
    if (this.sealed) throw new TypeError("A registry snapshot is immutable: reload the registry instead.");
    return super.set(key, value);
  }
  override delete(key: K): boolean {
    if (this.sealed) throw new TypeError("A registry snapshot is immutable: reload the registry instead.");
    return super.delete(key);
  }
  override clear(): void {
    if (this.sealed) throw new TypeError("A registry snapshot is immutable: reload the registry instead.");
    super.clear();
  }
}

/**
 * Freezes plain objects and arrays deeply. Anything else is left as it is: zod schemas (zod caches lazily inside
 * them), functions, and class instances a definition may carry in `options` or `providerOptions`.
 */
function freezeData<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  const plain = Array.isArray(value) || proto === Object.prototype || proto === null;
  if (!plain || "_zod" in value) return value;
  seen.add(value);
  for (const key of Object.keys(value)) freezeData((value as Record<string, unknown>)[key], seen);
  return Object.freeze(value);
}

export interface BuildOptions {
  version: number;
  dir: string;
  /** `performance.now()` when the load started, to report the load time. */
  startedAt?: number;
  /** Packed agent graphs to load next to the root graph, in their namespaces. */
  packages?: readonly LoadedPackage[];
  packageInfos?: readonly PackageInfo[];
}

/**
 * What each snapshot was built from, so a draft can be built from the same inputs with some files changed: a hidden
 * property under a global symbol, so every copy of this module (a bundler may load several) finds it.
 */
const INPUTS = Symbol.for("standard-agents-studio.registry-snapshot-inputs");
type SnapshotInputs = { load: LoadResult; options: BuildOptions };

/** The loaded files and options `snapshot` was built from (undefined for a snapshot not built by `buildSnapshot`). */
export function inputsOf(snapshot: RegistrySnapshot): SnapshotInputs | undefined {
  return (snapshot as unknown as { [INPUTS]?: SnapshotInputs })[INPUTS];
}

/** Validates and links loaded files into an immutable snapshot. Never throws for bad definitions. */
export function buildSnapshot(load: LoadResult, options: BuildOptions): RegistrySnapshot {
  const sink = new DiagnosticSink();
  for (const d of load.diagnostics) sink.add(d);
  const packages = options.packages ?? [];
  const validated = validateFiles(load.files, sink);
  validated.mcpServers = validateMcpFiles(load.mcp ?? [], sink);
  for (const pkg of packages) mergeValidated(validated, validatePackage(pkg, sink));
  const linked = linkDefinitions(validated, sink);
  const routes = linkRoutes(load.routes, sink);
  for (const pkg of packages) routes.endpoints.push(...linkPackageRoutes(pkg, sink));
  const providers = linkProviders(load.providers ?? [], sink);
  checkModelProviders(linked.models, providers, sink);
  const evals = validateEvalFiles(load.evals ?? [], { agents: new Set(linked.agents.keys()), models: new Set(linked.models.keys()) }, sink);
  const diagnostics = sortDiagnostics(sink.items);
  const allFound: (FoundFile & { package?: string })[] = [...load.found, ...packages.flatMap((p) => p.load.found.map((f) => ({ ...f, package: p.id })))];
  const files: DefinitionFileInfo[] = allFound.map((found) => {
    const own = diagnostics.filter((d) => d.file === found.file);
    const name = validated.fileNames.get(found.file);
    const pkg = found.package;
    return {
      kind: found.kind,
      file: found.file,
      absPath: found.absPath,
      ...(name !== undefined ? { name } : {}),
      ...(pkg !== undefined ? { package: pkg } : {}),
      errors: own.filter((d) => d.severity === "error").length,
      warnings: own.filter((d) => d.severity === "warning").length,
    };
  });
  const snapshot: RegistrySnapshot = {
    version: options.version,
    loadedAt: new Date().toISOString(),
    loadMs: options.startedAt === undefined ? 0 : Math.round((performance.now() - options.startedAt) * 10) / 10,
    dir: options.dir,
    agents: new FrozenMap(freezeData(packageOf(linked.agents, packages))),
    prompts: new FrozenMap(freezeData(packageOf(linked.prompts, packages))),
    models: new FrozenMap(freezeData(packageOf(linked.models, packages))),
    tools: new FrozenMap(freezeData(packageOf(linked.tools, packages))),
    hooks: new FrozenMap(freezeData(packageOf(linked.hooks, packages))),
    effects: new FrozenMap(freezeData(packageOf(linked.effects, packages))),
    mcpServers: new FrozenMap(freezeData([...validated.mcpServers])),
    evals: new FrozenMap([...evals]),
    endpoints: Object.freeze(routes.endpoints),
    controllers: Object.freeze(routes.controllers),
    providers: new FrozenMap([...providers]),
    diagnostics: freezeData(diagnostics as Diagnostic[]),
    files: freezeData(files),
    ...(options.packageInfos?.length ? { packages: freezeData([...options.packageInfos]) } : {}),
  };
  Object.defineProperty(snapshot, INPUTS, { value: { load, options } satisfies SnapshotInputs, enumerable: false });
  return Object.freeze(snapshot);
}

/** Loads, validates and links every definition under `options.dir` into a snapshot (one call, no watching). */
export async function loadRegistry(options: LoaderOptions & { version?: number }): Promise<RegistrySnapshot> {
  const startedAt = performance.now();
  const load = await loadDefinitionFiles(options);
  const { packages, infos } = await loadPackages(options);
  return buildSnapshot(load, { version: options.version ?? 1, dir: options.dir, startedAt, packages, packageInfos: infos });
}

/** A snapshot with no definitions and one diagnostic, used when a load itself fails unexpectedly. */
export function failedSnapshot(dir: string, version: number, error: unknown): RegistrySnapshot {
  const message = error instanceof Error ? error.message : String(error);
  return buildSnapshot(
    {
      files: [],
      found: [],
      routes: [],
      diagnostics: [
        {
          severity: "error",
          kind: "registry",
          file: "",
          field: "",
          message: `Loading the definitions in ${dir} failed: ${message}`,
          fix: "Check that AGENTS_DIR is readable and that the project's node_modules are installed, then save a file to reload.",
        },
      ],
    },
    { version, dir },
  );
}
