import fs from "node:fs/promises";
import path from "node:path";
import { ROUTE_KINDS, type RouteKind } from "@/server/spec";
import type { Diagnostic } from "@/shared/diagnostic";
import { isDefinitionFileName, loadErrorDiagnostic } from "./loader";
import type { DefinitionImporter } from "./module-import";
import type { LoadedRouteFile } from "./types";

/** The files of a route folder, recursively, sorted, relative to AGENTS_DIR with `/` separators. */
async function listRouteFiles(dir: string, kind: RouteKind): Promise<string[]> {
  const root = path.join(dir, kind);
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && isDefinitionFileName(e.name))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** Loads every file under `api/` and `controllers/`; a file that fails to evaluate becomes a diagnostic. */
export async function loadRouteFiles(dir: string, importDefault: DefinitionImporter, diagnostics: Diagnostic[]): Promise<LoadedRouteFile[]> {
  const out: LoadedRouteFile[] = [];
  for (const kind of ROUTE_KINDS) {
    for (const file of await listRouteFiles(dir, kind)) {
      const absPath = path.join(dir, file);
      const loaded = await importDefault(absPath);
      if (!loaded.ok) diagnostics.push(loadErrorDiagnostic(kind, file, absPath, loaded.error));
      else out.push({ kind, file, absPath, value: loaded.value });
    }
  }
  return out;
}
