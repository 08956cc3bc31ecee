/**
 * Registry diagnostics: the registry reports them, and the browser shows them (the home page, the graph editor's
 * nodes), so their type lives in the shared folder.
 */
import type { DefinitionKind, RouteKind } from "@/server/spec";

export type DiagnosticSeverity = "error" | "warning";
/** The definition kind or route folder a diagnostic is about (the folder name), or `registry` for AGENTS_DIR itself. */
export type DiagnosticKind = DefinitionKind | RouteKind | "mcp" | "providers" | "evals" | "registry";

/** A problem found while loading, validating or linking definition files. */
export interface Diagnostic {
  severity: DiagnosticSeverity;
  /** File relative to AGENTS_DIR with `/` separators, e.g. `agents/writer.ts` ('' for AGENTS_DIR itself). */
  file: string;
  kind: DiagnosticKind;
  /** Registry name of the definition, when known. */
  name?: string;
  /** Dotted field path inside the definition (`sideA.sessionStop.name`, `tools.2`); '' for the whole file. */
  field: string;
  /** What is wrong. */
  message: string;
  /** What to write to fix it. */
  fix: string;
  /** 1-based position in the file, for load errors that carry one. */
  line?: number;
  column?: number;
}
