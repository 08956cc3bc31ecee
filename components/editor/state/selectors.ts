/** Derived data of the editor state: the projection input, the save request, reference documents, name lists. */
import type { ProjectionDefinition } from "@/shared/graph-projection";
import { isDocObject, isEditableKind } from "@/shared/editor/doc";
import type { RefDoc } from "@/shared/editor/references";
import type { SaveChange } from "@/shared/editor/save-change";
import type { DefinitionKind } from "@/server/spec";
import { docName, isDirty, type Docs, type EditorDoc } from "./editor-state";

export function liveDocs(docs: Docs): EditorDoc[] {
  return Object.values(docs).filter((d) => !d.deleted);
}

export function projectionDefinitions(docs: Docs): ProjectionDefinition[] {
  return liveDocs(docs).map((d) => ({
    id: d.id,
    kind: d.kind,
    name: docName(d),
    file: d.file ?? d.id,
    value: d.value,
    writable: d.writable,
    facts: d.facts,
  }));
}

export function dirtyIds(docs: Docs): Set<string> {
  return new Set(Object.values(docs).filter(isDirty).map((d) => d.id));
}

export function refDocs(docs: Docs): RefDoc[] {
  return liveDocs(docs).map((d) => ({ id: d.id, kind: d.kind, name: docName(d), value: d.value }));
}

/** The changes Save sends: writes, deletions and tool renames of every dirty document. */
export function saveChanges(docs: Docs): SaveChange[] {
  const out: SaveChange[] = [];
  for (const d of Object.values(docs)) {
    if (!isDirty(d)) continue;
    if (d.deleted) {
      if (d.file) out.push({ op: "delete", file: d.file, hash: d.hash });
      continue;
    }
    if (d.kind === "tools" && d.renameTo && d.file) {
      out.push({ op: "renameTool", file: d.file, hash: d.hash, to: d.renameTo });
      continue;
    }
    if (isEditableKind(d.kind) && d.value) out.push({ op: "write", kind: d.kind, file: d.file, hash: d.hash, value: d.value });
  }
  return out;
}

export function namesOf(docs: Docs, kind: DefinitionKind): string[] {
  return liveDocs(docs)
    .filter((d) => d.kind === kind)
    .map(docName)
    .sort((a, b) => a.localeCompare(b));
}

/** Every variable name declared or given a value anywhere (for `env` part autocompletion). */
export function variableNames(docs: Docs): string[] {
  const names = new Set<string>();
  for (const d of liveDocs(docs)) {
    const v = d.value;
    if (!v) continue;
    if (Array.isArray(v.variables)) for (const x of v.variables) if (isDocObject(x) && typeof x.name === "string") names.add(x.name);
    if (v.env && typeof v.env === "object" && !Array.isArray(v.env)) for (const k of Object.keys(v.env)) if (k !== "$code") names.add(k);
  }
  return [...names].sort();
}

export function docByNodeKind(docs: Docs, kind: DefinitionKind, name: string): EditorDoc | undefined {
  return liveDocs(docs).find((d) => d.kind === kind && docName(d) === name);
}
