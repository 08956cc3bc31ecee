/**
 * The editor's view of a definition file: the default export's object literal as plain JSON data ("as written",
 * without schema defaults), where every value the editor cannot represent as data (a `z.object(...)`, a function, an
 * identifier, a template with substitutions, a spread...) is replaced by a `{ $code }` marker holding its source text.
 * Markers are shown read-only and are never rewritten. Browser-safe: no Node or TypeScript imports.
 */

/** A value the editor cannot represent as data, kept as its source text. */
export interface CodeMarker {
  $code: string;
}

/** JSON data plus code markers. */
export type DocValue = string | number | boolean | null | CodeMarker | DocValue[] | { [key: string]: DocValue };
export type DocObject = { [key: string]: DocValue };

/** The kinds the editor writes back as data. */
export const EDITABLE_KINDS = ["agents", "prompts", "models"] as const;
export type EditableKind = (typeof EDITABLE_KINDS)[number];

export function isEditableKind(kind: string): kind is EditableKind {
  return (EDITABLE_KINDS as readonly string[]).includes(kind);
}

export function isCodeMarker(value: unknown): value is CodeMarker {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { $code?: unknown }).$code === "string" &&
    Object.keys(value).length === 1
  );
}

export function isDocObject(value: unknown): value is DocObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isCodeMarker(value);
}

/** Structural equality of two document values (key order does not matter). */
export function docEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => docEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && docEqual(ao[k], bo[k]));
}

/** Dotted paths of every code marker in `value` (`requiredSchema`, `tools.2.options`). */
export function codePaths(value: DocValue, prefix = ""): string[] {
  if (isCodeMarker(value)) return [prefix];
  const out: string[] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...codePaths(v, prefix ? `${prefix}.${i}` : String(i))));
  else if (isDocObject(value)) {
    for (const [k, v] of Object.entries(value)) out.push(...codePaths(v, prefix ? `${prefix}.${k}` : k));
  }
  return out;
}

/** The value at a dotted path, or undefined. */
export function getAt(value: unknown, path: string): unknown {
  if (path === "") return value;
  let current: unknown = value;
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * A copy of `root` with the value at `path` replaced (`undefined` removes an object key; array indexes stay put).
 * Missing intermediate objects are created. Never mutates `root`.
 */
export function setAt<T extends DocValue>(root: T, path: string, value: DocValue | undefined): T {
  if (path === "") return (value ?? root) as T;
  const [head, ...rest] = path.split(".") as [string, ...string[]];
  const tail = rest.join(".");
  if (Array.isArray(root)) {
    const index = Number(head);
    const copy = [...root];
    const child = copy[index] ?? {};
    if (tail === "" && value === undefined) copy.splice(index, 1);
    else copy[index] = tail === "" ? (value as DocValue) : setAt(child as DocValue, tail, value);
    return copy as T;
  }
  const obj: DocObject = isDocObject(root) ? { ...root } : {};
  if (tail === "") {
    if (value === undefined) delete obj[head];
    else obj[head] = value;
    return obj as T;
  }
  const child = obj[head];
  const next = setAt((child === undefined ? (/^\d+$/.test(rest[0] ?? "") ? [] : {}) : child) as DocValue, tail, value);
  obj[head] = next;
  return obj as T;
}

/** Converts any plain value (a parsed definition) into a document value; functions and class instances become markers. */
export function toDocValue(value: unknown, seen = new Set<unknown>()): DocValue | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : { $code: String(value) };
  if (typeof value === "function") return { $code: "(code)" };
  if (typeof value !== "object") return { $code: String(value) };
  if (seen.has(value)) return { $code: "(circular)" };
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => toDocValue(v, seen) ?? null);
    const proto = Object.getPrototypeOf(value) as unknown;
    if ("_zod" in value) return { $code: "(zod schema)" };
    if (proto !== Object.prototype && proto !== null) return { $code: "(object)" };
    const out: DocObject = {};
    for (const [k, v] of Object.entries(value)) {
      const converted = toDocValue(v, seen);
      if (converted !== undefined) out[k] = converted;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
