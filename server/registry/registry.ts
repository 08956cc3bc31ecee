import type { Diagnostic } from "@/shared/diagnostic";
import { DiagnosticSink, sortDiagnostics } from "./diagnostics";
import { linkDefinitions } from "./link";
import { linkRoutes } from "./link-routes";
import { checkModelProviders, linkProviders } from "./provider-loader";
import { loadDefinitionFiles, type LoaderOptions, type LoadResult } from "./loader";
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
}

/** Validates and links loaded files into an immutable snapshot. Never throws for bad definitions. */
export function buildSnapshot(load: LoadResult, options: BuildOptions): RegistrySnapshot {
  const sink = new DiagnosticSink();
  for (const d of load.diagnostics) sink.add(d);
  const validated = validateFiles(load.files, sink);
  const linked = linkDefinitions(validated, sink);
  const routes = linkRoutes(load.routes, sink);
  const providers = linkProviders(load.providers ?? [], sink);
  checkModelProviders(linked.models, providers, sink);
  const diagnostics = sortDiagnostics(sink.items);
  const files: DefinitionFileInfo[] = load.found.map((found) => {
    const own = diagnostics.filter((d) => d.file === found.file);
    const name = validated.fileNames.get(found.file);
    return {
      kind: found.kind,
      file: found.file,
      absPath: found.absPath,
      ...(name !== undefined ? { name } : {}),
      errors: own.filter((d) => d.severity === "error").length,
      warnings: own.filter((d) => d.severity === "warning").length,
    };
  });
  const snapshot: RegistrySnapshot = {
    version: options.version,
    loadedAt: new Date().toISOString(),
    loadMs: options.startedAt === undefined ? 0 : Math.round((performance.now() - options.startedAt) * 10) / 10,
    dir: options.dir,
    agents: new FrozenMap(freezeData([...linked.agents])),
    prompts: new FrozenMap(freezeData([...linked.prompts])),
    models: new FrozenMap(freezeData([...linked.models])),
    tools: new FrozenMap(freezeData([...linked.tools])),
    hooks: new FrozenMap(freezeData([...linked.hooks])),
    effects: new FrozenMap(freezeData([...linked.effects])),
    endpoints: Object.freeze(routes.endpoints),
    controllers: Object.freeze(routes.controllers),
    providers: new FrozenMap([...providers]),
    diagnostics: freezeData(diagnostics as Diagnostic[]),
    files: freezeData(files),
  };
  return Object.freeze(snapshot);
}

/** Loads, validates and links every definition under `options.dir` into a snapshot (one call, no watching). */
export async function loadRegistry(options: LoaderOptions & { version?: number }): Promise<RegistrySnapshot> {
  const startedAt = performance.now();
  const load = await loadDefinitionFiles(options);
  return buildSnapshot(load, { version: options.version ?? 1, dir: options.dir, startedAt });
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
