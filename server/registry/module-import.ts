import path from "node:path";
import { createJiti } from "jiti";
import * as zod from "zod";
import * as specModule from "@/server/spec";
import type { LoaderOptions } from "./loader";

/** Import specifiers that give definition files the spec helpers (`defineAgent`, …). */
export const SPEC_MODULE_NAMES = ["@studio/spec", "@standardagents/spec", "@standardagents/builder"] as const;

/** A file's default export (undefined when it has none), or the error its evaluation threw. */
export type ImportResult = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Evaluates one file under AGENTS_DIR and returns its default export. */
export type DefinitionImporter = (absPath: string) => Promise<ImportResult>;

/**
 * An importer of definition and route files with jiti (TypeScript, no build step). `moduleCache: false` makes each
 * load read the files afresh.
 */
export function createDefinitionImporter(options: LoaderOptions): DefinitionImporter {
  const jiti = createJiti(path.join(options.projectRoot, "package.json"), {
    moduleCache: false,
    interopDefault: true,
    // The spec's own package names resolve to the same helpers, so definition files written for other
    // Standard Agents runtimes load unchanged.
    alias: Object.fromEntries(SPEC_MODULE_NAMES.map((name) => [name, options.specModulePath])),
    // Definition files share the app's zod (and spec) instances, so their schemas are the same classes the runtime
    // uses, and `import { z } from "zod"` resolves even when AGENTS_DIR is outside the project.
    virtualModules:
      options.shareSpecInstance === false ? { zod } : { zod, ...Object.fromEntries(SPEC_MODULE_NAMES.map((name) => [name, specModule])) },
  });
  const timeoutMs = options.fileTimeoutMs ?? 10_000;
  return async (absPath) => {
    const loaded = await importWithTimeout(() => jiti.import<Record<string, unknown>>(absPath), timeoutMs);
    return loaded.ok ? { ok: true, value: defaultExport(loaded.value) } : loaded;
  };
}

async function importWithTimeout<T>(
  run: () => Promise<T>,
  timeoutMs: number,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ ok: false; error: unknown }>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: new Error(`loading took longer than ${timeoutMs} ms (a top-level await that never settles?)`) }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([run().then((value) => ({ ok: true as const, value })), timeout]);
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/** The default export, or undefined. jiti's interop proxy exposes `default` even without one, so own keys decide. */
function defaultExport(mod: unknown): unknown {
  if (mod === null || (typeof mod !== "object" && typeof mod !== "function")) return undefined;
  if (!Object.keys(mod).includes("default")) return undefined;
  const value = (mod as { default: unknown }).default;
  // `export default undefined` comes back wrapped by the interop proxy as `{ default: undefined }`.
  if (value !== null && typeof value === "object" && Object.keys(value).length === 1 && "default" in value) {
    const inner = (value as { default: unknown }).default;
    if (inner === undefined || inner === null) return undefined;
  }
  return value;
}
