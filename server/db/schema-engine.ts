import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine, SchemaFilter } from "@prisma/schema-engine-wasm";
import { disposeOnce, shadowScriptFallback } from "./migration-adapters";
import { readSchema } from "./migrations-folder";

/**
 * Prisma's schema engine compiled to WebAssembly, driven through a driver adapter. It replaces the native
 * schema-engine binary (which `prisma migrate` would download) and runs entirely offline.
 *
 * Loading: the package's entry does `import "./schema_engine_bg.wasm"`, which Node cannot import, so the JS glue is
 * imported and the .wasm next to it is instantiated by hand, once per process.
 */

type Bindgen = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

const BG_MODULE = "@prisma/schema-engine-wasm/schema_engine_bg";
let loading: Promise<Bindgen> | undefined;

/** Where the .wasm lives: next to the glue module, resolved from the project root (works when bundled too). */
function wasmPath(projectRoot: string | undefined): string {
  const bases = [projectRoot, process.cwd(), path.dirname(fileURLToPath(import.meta.url))].filter(
    (b): b is string => typeof b === "string",
  );
  for (const base of bases) {
    try {
      const glue = createRequire(path.join(base, "noop.js")).resolve(BG_MODULE);
      const file = path.join(path.dirname(glue), "schema_engine_bg.wasm");
      if (fs.existsSync(file)) return file;
    } catch {
      // try the next base
    }
  }
  throw new Error(
    `Cannot find @prisma/schema-engine-wasm (searched from ${bases.join(", ")}); run npm install in the project root.`,
  );
}

async function loadEngineModule(projectRoot?: string): Promise<Bindgen> {
  loading ??= (async () => {
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = fs.readFileSync(wasmPath(projectRoot));
    const imports = { "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports };
    const { instance } = await WebAssembly.instantiate(bytes, imports);
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg;
  })().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** The engine plus `close()`, which frees it and closes every database connection it opened. */
export type MigrationEngine = SchemaEngine & { close(): Promise<void> };

export const noFilters: SchemaFilter = { externalTables: [], externalEnums: [] };

export interface CreateSchemaEngineOptions {
  /** Receives the engine's tracing output (JSON lines). */
  log?: (line: string) => void;
  /** Folder holding node_modules (defaults to the working directory). */
  projectRoot?: string;
}

/**
 * Start a schema engine for `schemaPath` over `adapterFactory` (see `migrationAdapterFactory`).
 * Always `close()` it: on SQLite the engine holds its connection in EXCLUSIVE locking mode, and `free()` alone does
 * not close it, so any other connection to the file would time out until `close()`.
 */
export async function createSchemaEngine(
  schemaPath: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  opts: CreateSchemaEngineOptions = {},
): Promise<MigrationEngine> {
  const bg = await loadEngineModule(opts.projectRoot);
  const content = readSchema(schemaPath);
  const opened: SqlDriverAdapter[] = [];
  const fixed = shadowScriptFallback(adapterFactory);
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    adapterName: fixed.adapterName,
    provider: fixed.provider,
    connect: async () => {
      const a = disposeOnce(await fixed.connect());
      opened.push(a);
      return a;
    },
    connectToShadowDb: async () => {
      const a = disposeOnce(await fixed.connectToShadowDb());
      opened.push(a);
      return a;
    },
  };
  const bound = bindMigrationAwareSqlAdapterFactory(tracking);
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[path.basename(schemaPath), content]] },
    opts.log ?? (() => {}),
    bound,
  );
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    engine.free();
    const errors: unknown[] = [];
    for (const a of opened.splice(0).reverse()) {
      await a.dispose().catch((e: unknown) => errors.push(e));
    }
    if (errors.length > 0) throw errors[0];
  };
  // Driver errors reach us as "External error id#N": append the original error kept in the adapter's registry.
  return new Proxy(engine, {
    get(target, prop) {
      if (prop === "close") return close;
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.catch((e: unknown) => {
          const err = e instanceof Error ? e : new Error(String(e));
          const m = /External error id#(\d+)/.exec(err.message);
          const original = m ? bound.errorRegistry.consumeError(Number(m[1]))?.error : undefined;
          if (original !== undefined) err.message += `\nDriver adapter error: ${JSON.stringify(original)}`;
          throw err;
        });
      };
    },
  }) as MigrationEngine;
}
