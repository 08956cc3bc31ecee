import fs from "node:fs/promises";
import path from "node:path";
import { formatZodIssues, mcpServerDefinitionSchema, type ParsedMcpServerDefinition } from "@/server/spec";
import type { Diagnostic } from "@/shared/diagnostic";
import type { DiagnosticSink } from "./diagnostics";
import { isDefinitionFileName, loadErrorDiagnostic } from "./loader";
import type { DefinitionImporter } from "./module-import";
import { fixFromIssue } from "./validate";

/** The folder under AGENTS_DIR that holds MCP server definitions (`mcp/<name>.ts`). */
export const MCP_FOLDER = "mcp";

/** A file under `mcp/` whose module loaded (its default export not yet checked). */
export interface LoadedMcpFile {
  file: string;
  absPath: string;
  value: unknown;
}

/** An MCP server whose definition is valid: prompts may offer its tools as `name__tool`. */
export interface McpServerRecord {
  name: string;
  file: string;
  absPath: string;
  definition: ParsedMcpServerDefinition;
}

/** Loads every file of `mcp/`; a file that fails to evaluate becomes a diagnostic. */
export async function loadMcpFiles(dir: string, importDefault: DefinitionImporter, diagnostics: Diagnostic[]): Promise<LoadedMcpFile[]> {
  const entries = await fs.readdir(path.join(dir, MCP_FOLDER), { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isFile() && isDefinitionFileName(e.name)).map((e) => e.name).sort();
  const out: LoadedMcpFile[] = [];
  for (const name of names) {
    const file = `${MCP_FOLDER}/${name}`;
    const absPath = path.join(dir, MCP_FOLDER, name);
    const loaded = await importDefault(absPath);
    if (!loaded.ok) diagnostics.push(loadErrorDiagnostic("mcp", file, absPath, loaded.error));
    else out.push({ file, absPath, value: loaded.value });
  }
  return out;
}

/** Validates the loaded `mcp/` files: schema errors and duplicate names are diagnostics naming the file and field. */
export function validateMcpFiles(files: readonly LoadedMcpFile[], sink: DiagnosticSink): Map<string, McpServerRecord> {
  const out = new Map<string, McpServerRecord>();
  for (const f of files) {
    const raw = f.value;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      sink.error({
        kind: "mcp",
        file: f.file,
        field: "",
        message: `${f.file} has no MCP server definition as its default export.`,
        fix: "Export the definition: `export default defineMcpServer({ name, transport: 'stdio', command, args })`.",
      });
      continue;
    }
    const rawName = (raw as { name?: unknown }).name;
    const base = { kind: "mcp" as const, file: f.file, ...(typeof rawName === "string" && rawName ? { name: rawName } : {}) };
    const parsed = mcpServerDefinitionSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of formatZodIssues(parsed.error.issues, raw)) {
        sink.error({
          ...base,
          field: issue.path,
          message: `Invalid MCP server ${base.name ? `"${base.name}"` : "definition"}${issue.path ? ` at \`${issue.path}\`` : ""}: ${issue.message}.`.replace(/\.\.$/, "."),
          fix: fixFromIssue(issue, f.file),
        });
      }
      continue;
    }
    const def = parsed.data;
    const earlier = out.get(def.name);
    if (earlier) {
      sink.error({
        ...base,
        field: "name",
        message: `Duplicate MCP server name "${def.name}": defined in ${earlier.file} and ${f.file}. Only ${earlier.file} is used.`,
        fix: `Give each MCP server a unique name: change it in ${f.file}.`,
      });
      continue;
    }
    out.set(def.name, { name: def.name, file: f.file, absPath: f.absPath, definition: def });
  }
  return out;
}
