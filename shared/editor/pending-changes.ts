/**
 * What Save would write, counted the way a person reads it: one change per field edited (a field edited twice is one
 * change; a field edited and put back is none), one per new file, deleted file or renamed tool. And the status line
 * the editor shows from it, which also says when a field holds input that is not applied (invalid) or a document the
 * schema refuses. Browser-safe.
 */
import { docEqual, isDocObject, type DocValue } from "./doc";

/** The part of an editor document these counts need. */
export interface PendingDoc {
  file: string | null;
  value: DocValue | null;
  base: DocValue | null;
  deleted?: boolean;
  renameTo?: string;
}

/**
 * Dotted paths of the fields that differ between `base` and `value`. Objects are compared key by key; arrays, strings
 * and other values count as one field (a tools list with an entry added is one change).
 */
export function changedFields(base: DocValue | null | undefined, value: DocValue | null | undefined, prefix = ""): string[] {
  if (docEqual(base, value)) return [];
  if (isDocObject(base) && isDocObject(value)) {
    const keys = new Set([...Object.keys(base), ...Object.keys(value)]);
    return [...keys].sort().flatMap((k) => changedFields(base[k], value[k], prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

/** The pending changes of one document, as short descriptions (`new file`, `deleted`, `renamed`, or field paths). */
export function pendingChanges(doc: PendingDoc): string[] {
  if (doc.deleted) return doc.file ? ["deleted"] : [];
  if (doc.file === null) return ["new file"];
  const out: string[] = doc.renameTo !== undefined ? ["renamed"] : [];
  return [...out, ...changedFields(doc.base, doc.value)];
}

export function pendingChangeCount(docs: Iterable<PendingDoc>): number {
  let n = 0;
  for (const d of docs) n += pendingChanges(d).length;
  return n;
}

export interface SaveStatusInput {
  readonly: boolean;
  /** Pending changes (pendingChangeCount). */
  changes: number;
  /** Fields whose input is not applied because it does not parse or the schema refuses it. */
  invalidInputs: number;
  /** Schema problems in the documents Save would write (Save refuses them). */
  invalidFields: number;
}

export interface SaveStatus {
  text: string;
  tone: "saved" | "pending" | "invalid" | "readonly";
  /** Whether Save has something to write that it may write. */
  canSave: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The toolbar's status: never "All changes saved" while something typed is not applied or a document is invalid. */
export function saveStatus(s: SaveStatusInput): SaveStatus {
  if (s.readonly) return { text: "Read-only", tone: "readonly", canSave: false };
  const parts: string[] = [];
  if (s.changes > 0) parts.push(plural(s.changes, "unsaved change", "unsaved changes"));
  if (s.invalidInputs > 0) parts.push(`${plural(s.invalidInputs, "field", "fields")} with invalid input (not applied)`);
  if (s.invalidFields > 0) parts.push(`${plural(s.invalidFields, "invalid field", "invalid fields")} to fix before saving`);
  if (parts.length === 0) return { text: "All changes saved", tone: "saved", canSave: false };
  const invalid = s.invalidInputs > 0 || s.invalidFields > 0;
  return { text: parts.join(" · "), tone: invalid ? "invalid" : "pending", canSave: s.changes > 0 };
}
