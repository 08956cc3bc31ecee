/**
 * What the graph editor loads: every definition file of a snapshot with its document value as written in the file
 * (or, when the editor cannot write the file back, the registry's parsed value, read-only), the content hash the
 * save checks against, and the facts the canvas shows (argument and schema fields). The server builds it
 * (`server/registry/writer/editor-view.ts`); the browser edits it.
 */
import type { DefinitionKind } from "@/server/spec";
import type { Diagnostic } from "../diagnostic";
import type { DocObject } from "./doc";

export interface EditorDefinition {
  /** Stable id: the file path relative to AGENTS_DIR. */
  id: string;
  kind: DefinitionKind;
  /** Registry name; for a file that did not load far enough, the name it declares or its file name. */
  name: string;
  file: string;
  /** Content hash of the file when read (null when the file could not be read). */
  hash: string | null;
  /** The definition as written (agents, prompts, models) or as loaded (tools, hooks, effects); null when unknown. */
  value: DocObject | null;
  /** Whether the editor may write this definition back. */
  writable: boolean;
  /** Why not, when it may not. */
  reason?: string;
  /** True when the registry loaded and validated this file. */
  loaded: boolean;
  facts: { argFields?: string[]; schemaFields?: string[] };
}

export interface EditorView {
  version: number;
  loadedAt: string;
  agentsDir: string;
  /** True when this caller may not write: the server's setting, or a caller who is not an administrator. */
  readonly: boolean;
  /** Why it is read-only: `server` (DEFINITIONS_READONLY=1) or `role` (the caller is not an administrator). */
  readonlyBecause?: "server" | "role";
  definitions: EditorDefinition[];
  diagnostics: Diagnostic[];
}

export const NOT_ADMIN_REASON = "only administrators can change definitions";

/**
 * The view as a caller who may not write sees it (not an administrator, or an API key without the admin scope):
 * read-only, every definition unwritable with the reason. A server that is read-only already says so.
 */
export function viewForCaller(view: EditorView, mayWrite: boolean): EditorView {
  if (mayWrite || view.readonly) return view;
  return {
    ...view,
    readonly: true,
    readonlyBecause: "role",
    definitions: view.definitions.map((d) => (d.writable ? { ...d, writable: false, reason: NOT_ADMIN_REASON } : d)),
  };
}
