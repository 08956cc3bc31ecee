/**
 * The editor's working copy: one document per definition file (plus new ones), with undo/redo over the whole set.
 * Edits stay in the browser until Save; external changes to the files arrive as new views and are merged in.
 */
import type { DefinitionKind } from "@/server/spec";
import type { EditorDefinition, EditorView } from "@/shared/editor/editor-view";
import { docEqual, isDocObject, type DocObject, type EditableKind } from "@/shared/editor/doc";

export interface EditorDoc {
  /** The file path relative to AGENTS_DIR, or `new:<kind>:<n>` for a definition not saved yet. */
  id: string;
  kind: DefinitionKind;
  /** The file it was read from (null: new). */
  file: string | null;
  hash: string | null;
  /** The working value (as written). */
  value: DocObject | null;
  /** The value in the file, to tell what changed. */
  base: DocObject | null;
  /** The name in the view (tools: the file name). */
  baseName: string;
  writable: boolean;
  reason?: string;
  loaded: boolean;
  facts: EditorDefinition["facts"];
  deleted?: boolean;
  /** Tools only: the new file name. */
  renameTo?: string;
}

export type Docs = Readonly<Record<string, EditorDoc>>;

export type Selection = { type: "node"; id: string } | { type: "edge"; id: string } | null;

export interface EditorState {
  view: EditorView | null;
  docs: Docs;
  past: Docs[];
  future: Docs[];
  selection: Selection;
  /** A field to scroll to and focus in the side panel. */
  focus: { defId: string; path: string; nonce: number } | null;
  counter: number;
  /** The last edit, so that typing in one field makes one undo step. */
  lastEdit: { key: string; at: number } | null;
}

export const initialEditorState: EditorState = { view: null, docs: {}, past: [], future: [], selection: null, focus: null, counter: 0, lastEdit: null };

export type EditorAction =
  | { type: "view"; view: EditorView; reset?: boolean }
  | { type: "edit"; changes: Record<string, DocObject>; coalesce?: string }
  | { type: "create"; kind: EditableKind; value: DocObject }
  | { type: "delete"; id: string; changes: Record<string, DocObject> }
  | { type: "renameTool"; id: string; to: string; changes: Record<string, DocObject> }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "select"; selection: Selection }
  | { type: "focus"; defId: string; path: string };

const HISTORY_LIMIT = 200;

export function docName(doc: EditorDoc): string {
  if (doc.kind === "tools") return doc.renameTo ?? doc.baseName;
  const n = doc.value?.name ?? doc.value?.id;
  return typeof n === "string" && n !== "" ? n : doc.baseName;
}

export function isDirty(doc: EditorDoc): boolean {
  return doc.deleted === true || doc.file === null || doc.renameTo !== undefined || !docEqual(doc.value, doc.base);
}

function fromDefinition(def: EditorDefinition): EditorDoc {
  return {
    id: def.id,
    kind: def.kind,
    file: def.file,
    hash: def.hash,
    value: def.value,
    base: def.value,
    baseName: def.name,
    writable: def.writable,
    ...(def.reason !== undefined ? { reason: def.reason } : {}),
    loaded: def.loaded,
    facts: def.facts,
  };
}

/** Three-way merge at the top level: keys the user did not touch take the file's new value. */
function merge(doc: EditorDoc, def: EditorDefinition): EditorDoc {
  const next = fromDefinition(def);
  if (!isDirty(doc) || !isDocObject(doc.value) || !isDocObject(doc.base) || !isDocObject(def.value)) return next;
  const value: DocObject = { ...doc.value };
  const keys = new Set([...Object.keys(doc.base), ...Object.keys(def.value), ...Object.keys(doc.value)]);
  for (const key of keys) {
    if (!docEqual(doc.value[key], doc.base[key])) continue; // the user's edit wins
    if (def.value[key] === undefined) delete value[key];
    else value[key] = def.value[key];
  }
  return { ...next, value, ...(doc.deleted ? { deleted: true } : {}), ...(doc.renameTo ? { renameTo: doc.renameTo } : {}) };
}

function applyView(state: EditorState, view: EditorView, reset: boolean): EditorState {
  const docs: Record<string, EditorDoc> = {};
  for (const def of view.definitions) {
    const old = state.docs[def.id];
    docs[def.id] = old && !reset ? merge(old, def) : fromDefinition(def);
  }
  if (!reset) {
    for (const doc of Object.values(state.docs)) if (doc.file === null && !docs[doc.id]) docs[doc.id] = doc;
  }
  return reset ? { ...state, view, docs, past: [], future: [] } : { ...state, view, docs };
}

const COALESCE_MS = 1200;

function commit(state: EditorState, docs: Docs, coalesce?: string): EditorState {
  const now = Date.now();
  const lastEdit = coalesce ? { key: coalesce, at: now } : null;
  if (coalesce && state.lastEdit?.key === coalesce && now - state.lastEdit.at < COALESCE_MS && state.past.length > 0) {
    return { ...state, docs, future: [], lastEdit };
  }
  return { ...state, docs, past: [...state.past.slice(-HISTORY_LIMIT + 1), state.docs], future: [], lastEdit };
}

function withChanges(docs: Docs, changes: Record<string, DocObject>): Record<string, EditorDoc> {
  const out: Record<string, EditorDoc> = { ...docs };
  for (const [id, value] of Object.entries(changes)) {
    const doc = out[id];
    if (doc) out[id] = { ...doc, value };
  }
  return out;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "view":
      return applyView(state, action.view, action.reset === true);
    case "edit":
      return commit(state, withChanges(state.docs, action.changes), action.coalesce);
    case "create": {
      const id = `new:${action.kind}:${state.counter + 1}`;
      const doc: EditorDoc = { id, kind: action.kind, file: null, hash: null, value: action.value, base: null, baseName: String(action.value.name ?? ""), writable: true, loaded: false, facts: {} };
      const next = commit(state, { ...state.docs, [id]: doc });
      return { ...next, counter: state.counter + 1, selection: { type: "node", id: `${action.kind.slice(0, -1)}:${String(action.value.name)}` } };
    }
    case "delete": {
      const docs = withChanges(state.docs, action.changes);
      const doc = docs[action.id];
      if (!doc) return state;
      if (doc.file === null) delete docs[action.id];
      else docs[action.id] = { ...doc, deleted: true };
      return { ...commit(state, docs), selection: null };
    }
    case "renameTool": {
      const docs = withChanges(state.docs, action.changes);
      const doc = docs[action.id];
      if (!doc) return state;
      const { renameTo: _old, ...rest } = doc;
      docs[action.id] = action.to === doc.baseName ? rest : { ...rest, renameTo: action.to };
      return { ...commit(state, docs), selection: { type: "node", id: `tool:${action.to}` } };
    }
    case "undo": {
      const prev = state.past[state.past.length - 1];
      if (!prev) return state;
      return { ...state, docs: prev, past: state.past.slice(0, -1), future: [state.docs, ...state.future], lastEdit: null };
    }
    case "redo": {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return { ...state, docs: next, past: [...state.past, state.docs], future: rest, lastEdit: null };
    }
    case "select":
      return { ...state, selection: action.selection };
    case "focus":
      return { ...state, focus: { defId: action.defId, path: action.path, nonce: (state.focus?.nonce ?? 0) + 1 } };
  }
}
