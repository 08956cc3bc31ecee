/**
 * Custom providers: the files under `agents/providers/` (`defineProvider({ name, factory })`, one per file, the name
 * equal to the file name). Each is loaded and checked; a file that fails, a missing or mismatched name, a factory that
 * is not a function or a name a built-in provider already has is a diagnostic naming the file, the field and the fix,
 * and the provider is left out. Models naming a provider that neither is built in nor loaded are diagnostics too.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { BUILTIN_PROVIDER_NAMES, type ProviderFactory } from "@/server/spec";
import type { Diagnostic } from "@/shared/diagnostic";
import type { DiagnosticSink } from "./diagnostics";
import { isDefinitionFileName, loadErrorDiagnostic } from "./loader";
import type { DefinitionImporter } from "./module-import";
import type { ModelRecord } from "./types";

/** A custom provider that loaded and passed its checks. */
export interface ProviderRecord {
  name: string;
  file: string;
  absPath: string;
  description?: string;
  factory: ProviderFactory;
}

/** A file under `providers/` whose module loaded (its default export not yet checked). */
export interface LoadedProviderFile {
  file: string;
  absPath: string;
  baseName: string;
  value: unknown;
}

const FOLDER = "providers";
const EXAMPLE = "export default defineProvider({ name: \"<file name>\", factory: (config) => ({ name: \"<file name>\", async *stream(request, { signal }) { ... } }) })";

export async function loadProviderFiles(dir: string, importDefault: DefinitionImporter, diagnostics: Diagnostic[]): Promise<LoadedProviderFile[]> {
  const entries = await fs.readdir(path.join(dir, FOLDER), { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isFile() && isDefinitionFileName(e.name)).map((e) => e.name).sort();
  const out: LoadedProviderFile[] = [];
  for (const name of names) {
    const file = `${FOLDER}/${name}`;
    const absPath = path.join(dir, FOLDER, name);
    const loaded = await importDefault(absPath);
    if (!loaded.ok) diagnostics.push(loadErrorDiagnostic("providers", file, absPath, loaded.error));
    else out.push({ file, absPath, baseName: name.slice(0, name.length - path.extname(name).length), value: loaded.value });
  }
  return out;
}

export function linkProviders(files: readonly LoadedProviderFile[], sink: DiagnosticSink): Map<string, ProviderRecord> {
  const out = new Map<string, ProviderRecord>();
  for (const f of files) {
    const where = { kind: "providers" as const, file: f.file };
    const v = f.value as Record<string, unknown> | null | undefined;
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      sink.error({
        ...where,
        field: "",
        message: v === undefined ? `${f.file} has no default export, so it defines no provider.` : `${f.file}: the default export is not a provider definition object.`,
        fix: `Export the provider: \`${EXAMPLE}\`.`,
      });
      continue;
    }
    if (typeof v.name !== "string" || v.name !== f.baseName) {
      sink.error({
        ...where,
        field: "name",
        message: typeof v.name === "string" ? `Provider name "${v.name}" differs from its file name "${f.baseName}".` : `${f.file}: \`name\` is required (a string).`,
        fix: `Set \`name: "${f.baseName}"\` in ${f.file} (a provider's name is its file name).`,
      });
      continue;
    }
    if (typeof v.factory !== "function") {
      sink.error({
        ...where,
        name: v.name,
        field: "factory",
        message: `Provider "${v.name}": \`factory\` must be a function that returns the provider (got ${v.factory === undefined ? "nothing" : typeof v.factory}).`,
        fix: `Set \`factory: (config) => ({ name: "${v.name}", async *stream(request, { signal }) { ... } })\` in ${f.file}.`,
      });
      continue;
    }
    if ((BUILTIN_PROVIDER_NAMES as readonly string[]).includes(v.name)) {
      sink.error({
        ...where,
        name: v.name,
        field: "name",
        message: `"${v.name}" is a built-in provider; ${f.file} cannot replace it.`,
        fix: `Rename ${f.file} (and its \`name\`), then name the new provider in the models that should use it.`,
      });
      continue;
    }
    if (v.description !== undefined && typeof v.description !== "string") {
      sink.warning({ ...where, name: v.name, field: "description", message: `Provider "${v.name}": \`description\` is not a string, so it is ignored.`, fix: `Make \`description\` a one-line string in ${f.file}, or remove it.` });
    }
    out.set(v.name, {
      name: v.name,
      file: f.file,
      absPath: f.absPath,
      ...(typeof v.description === "string" ? { description: v.description } : {}),
      factory: v.factory as ProviderFactory,
    });
  }
  return out;
}

/** Each model's `provider` must be built in or defined under `providers/`. */
export function checkModelProviders(models: ReadonlyMap<string, ModelRecord>, providers: ReadonlyMap<string, ProviderRecord>, sink: DiagnosticSink): void {
  for (const m of models.values()) {
    const name = m.definition.provider;
    if ((BUILTIN_PROVIDER_NAMES as readonly string[]).includes(name) || providers.has(name)) continue;
    const custom = [...providers.keys()];
    sink.error({
      kind: "models",
      file: m.file,
      name: m.name,
      field: "provider",
      message: `Model "${m.name}" names provider "${name}", which is neither built in (${BUILTIN_PROVIDER_NAMES.join(", ")}) nor defined in providers/${custom.length > 0 ? ` (defined: ${custom.join(", ")})` : ""}.`,
      fix: `Set \`provider\` in ${m.file} to one of ${[...BUILTIN_PROVIDER_NAMES, ...custom].map((n) => `"${n}"`).join(", ")}, or add providers/${name}.ts (defineProvider).`,
    });
  }
}
