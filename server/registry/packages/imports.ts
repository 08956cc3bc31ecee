import fs from "node:fs/promises";
import { builtinModules } from "node:module";
import path from "node:path";
import { SPEC_MODULE_NAMES } from "../module-import";

/** Module specifiers a packed file may import besides its own relative files: the spec, zod and Node's built-ins. */
export function isProvidedModule(specifier: string): boolean {
  if ((SPEC_MODULE_NAMES as readonly string[]).includes(specifier) || specifier === "zod" || specifier.startsWith("zod/")) return true;
  return specifier.startsWith("node:") || builtinModules.includes(specifier);
}

const IMPORT_PATTERN = /(?:\bimport\s*(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?|\bexport\s+[^'"`;]*?\sfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** The module specifiers a source file imports (static, dynamic and `require`), in order of appearance. */
export function importSpecifiers(source: string): string[] {
  const out: string[] = [];
  for (const match of source.matchAll(IMPORT_PATTERN)) if (match[1]) out.push(match[1]);
  return out;
}

const EXTENSIONS = ["", ".ts", ".mts", ".js", ".mjs", "/index.ts", "/index.js"];

/** The file a relative specifier names, trying the extensions jiti tries; undefined when none exists. */
export async function resolveRelative(fromFile: string, specifier: string): Promise<string | undefined> {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    const stat = await fs.stat(candidate).catch(() => null);
    if (stat?.isFile()) return candidate;
  }
  return undefined;
}
