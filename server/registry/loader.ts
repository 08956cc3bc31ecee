import fs from "node:fs/promises";
import path from "node:path";
import { DEFINE_HELPERS, DEFINITION_FILE_EXTENSIONS, DEFINITION_KINDS, type DefinitionKind } from "@/server/spec";
import type { Diagnostic, DiagnosticKind } from "@/shared/diagnostic";
import { createDefinitionImporter } from "./module-import";
import { loadEvalFiles, type LoadedEvalFile } from "./evals";
import { loadMcpFiles, type LoadedMcpFile } from "./mcp-servers";
import { loadProviderFiles, type LoadedProviderFile } from "./provider-loader";
import { loadRouteFiles } from "./route-loader";
import type { LoadedFile, LoadedRouteFile, RegistryOptions } from "./types";

/** A definition file name: `word_count.ts`. Tests, declaration files and dot/underscore files are not definitions. */
export function isDefinitionFileName(name: string): boolean {
  if (name.startsWith(".") || name.startsWith("_")) return false;
  if (/\.(test|spec)\.[cm]?[jt]s$/.test(name) || /\.d\.[cm]?ts$/.test(name)) return false;
  return (DEFINITION_FILE_EXTENSIONS as readonly string[]).includes(path.extname(name));
}

export interface LoadResult {
  files: LoadedFile[];
  diagnostics: Diagnostic[];
  /** Every definition file found, loaded or not. */
  found: FoundFile[];
  /** The route files (`api/**`, `controllers/**`) that loaded with a default export. */
  routes: LoadedRouteFile[];
  /** The MCP server files (`mcp/*.ts`) that loaded. */
  mcp?: LoadedMcpFile[];
  /** The files under `providers/` that loaded (their default export not yet checked). */
  providers?: LoadedProviderFile[];
  /** The eval files (`evals/*.ts`) that loaded, with their case files read. */
  evals?: LoadedEvalFile[];
}

export interface LoaderOptions extends RegistryOptions {
  /** Longest time one file may take to evaluate before it is reported (default 10 s). */
  fileTimeoutMs?: number;
  /**
   * Give definition files the app's own `@studio/spec` module instead of evaluating `specModulePath` again for each
   * file (default true). Measured on the example graph: about 0.5 ms per file instead of 60-100 ms, and one spec
   * instance for the whole process. With false, `@studio/spec` resolves only through the alias.
   */
  shareSpecInstance?: boolean;
}

/** A definition file found under AGENTS_DIR. `file` is relative with `/` separators (`tools/word_count.ts`). */
export interface FoundFile {
  kind: DefinitionKind;
  file: string;
  absPath: string;
  baseName: string;
}

/** Lists the definition files of each kind folder, sorted by kind then file name. */
export async function listDefinitionFiles(dir: string): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  for (const kind of DEFINITION_KINDS) {
    const folder = kind;
    let names: string[];
    try {
      const entries = await fs.readdir(path.join(dir, folder), { withFileTypes: true });
      names = entries.filter((e) => e.isFile() && isDefinitionFileName(e.name)).map((e) => e.name);
    } catch {
      continue; // a kind folder may be absent
    }
    for (const name of names.sort()) {
      out.push({
        kind,
        file: `${folder}/${name}`,
        absPath: path.join(dir, folder, name),
        baseName: name.slice(0, name.length - path.extname(name).length),
      });
    }
  }
  return out;
}

/**
 * Loads every definition file under `dir` with jiti (TypeScript, no build step). A file that fails to load becomes
 * a diagnostic; the others still load. `moduleCache: false` makes each load read the files afresh.
 */
export async function loadDefinitionFiles(options: LoaderOptions): Promise<LoadResult> {
  const diagnostics: Diagnostic[] = [];
  const dirStat = await fs.stat(options.dir).catch(() => null);
  if (!dirStat?.isDirectory()) {
    diagnostics.push({
      severity: "error",
      kind: "registry",
      file: "",
      field: "",
      message: `AGENTS_DIR is missing: the folder ${options.dir} does not exist${dirStat ? " (it is a file)" : ""}, so no agents are loaded.`,
      fix: `Create ${options.dir} with agents/, prompts/, models/ and tools/ subfolders, or set AGENTS_DIR to the folder that holds them.`,
    });
    return { files: [], diagnostics, found: [], routes: [] };
  }
  const listed = await listDefinitionFiles(options.dir);
  const importDefault = createDefinitionImporter(options);
  const files: LoadedFile[] = [];
  for (const entry of listed) {
    const loaded = await importDefault(entry.absPath);
    if (!loaded.ok) {
      diagnostics.push(loadErrorDiagnostic(entry.kind, entry.file, entry.absPath, loaded.error));
      continue;
    }
    const value = loaded.value;
    if (value === undefined) {
      diagnostics.push({
        severity: "error",
        kind: entry.kind,
        file: entry.file,
        field: "",
        message: `${entry.file} has no default export, so it defines nothing.`,
        fix: `Export the definition as the default export: \`export default ${DEFINE_HELPERS[entry.kind]}({...})\`.`,
      });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      diagnostics.push({
        severity: "error",
        kind: entry.kind,
        file: entry.file,
        field: "",
        message: `${entry.file}: the default export is ${describe(value)}, not a definition object.`,
        fix: `Export the definition object: \`export default ${DEFINE_HELPERS[entry.kind]}({...})\`.`,
      });
      continue;
    }
    files.push({ kind: entry.kind, file: entry.file, absPath: entry.absPath, baseName: entry.baseName, value });
  }
  const routes = await loadRouteFiles(options.dir, importDefault, diagnostics);
  const mcp = await loadMcpFiles(options.dir, importDefault, diagnostics);
  const providers = await loadProviderFiles(options.dir, importDefault, diagnostics);
  const evals = await loadEvalFiles(options.dir, importDefault, diagnostics);
  return { files, diagnostics, found: listed, routes, mcp, providers, evals };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  return `a ${typeof value}`;
}

/** Turns a thrown load error into a diagnostic with the line and column when the error carries them. */
export function loadErrorDiagnostic(kind: DiagnosticKind, file: string, absPath: string, error: unknown): Diagnostic {
  const raw = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const location = findLocation(absPath, `${raw}\n${stack}`);
  const isSyntax = error instanceof SyntaxError || /^\s*(ParseError|SyntaxError)\b/.test(raw);
  const isMissingModule = (error as { code?: string } | null)?.code === "MODULE_NOT_FOUND" || /Cannot find module/.test(raw);
  const message = cleanMessage(raw, absPath);
  const where = location ? ` (line ${location.line}, column ${location.column})` : "";
  let fix: string;
  if (isSyntax) fix = `Fix the syntax error at ${file}${location ? `:${location.line}:${location.column}` : ""}; the file must parse as ${/\.m?ts$/.test(file) ? "TypeScript" : "JavaScript"}.`;
  else if (isMissingModule)
    fix = `Import only "zod", "@studio/spec" and files that exist next to ${file}; check the import path and spelling.`;
  else fix = `Fix the code that throws while ${file} is evaluated${location ? ` at line ${location.line}` : ""}; a definition file should only build and export its definition.`;
  const d: Diagnostic = {
    severity: "error",
    kind,
    file,
    field: "",
    message: `${file} failed to load${where}: ${isSyntax ? "syntax error: " : ""}${message}`,
    fix,
  };
  if (location) {
    d.line = location.line;
    d.column = location.column;
  }
  return d;
}

function findLocation(absPath: string, text: string): { line: number; column: number } | undefined {
  const escaped = absPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(text) ?? new RegExp(`${escaped}\\s*\\((\\d+):(\\d+)\\)`).exec(text);
  if (!match) return undefined;
  return { line: Number(match[1]), column: Number(match[2]) };
}

function cleanMessage(message: string, absPath: string): string {
  return message
    .replace(/\nRequire stack:[\s\S]*$/, "")
    .replace(/^ParseError:\s*/, "")
    .replace(new RegExp(`\\s*${absPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(:\\d+:\\d+)?`, "g"), "")
    .replace(/\s+/g, " ")
    .trim();
}
