/**
 * Surgical edits of a definition file: compares the file's default-export object literal with the new document
 * value and rewrites only what differs — a changed property's value, an inserted or removed property or array
 * element — leaving every other byte (imports, comments, code, formatting) as it was.
 */
import ts from "typescript";
import type { DefinitionKind } from "@/server/spec";
import { docEqual, isCodeMarker, isDocObject, type DocObject, type DocValue } from "@/shared/editor/doc";
import { keyOrderAt } from "@/shared/editor/key-order";
import { keyText, toSource } from "./serialize";
import { locateDefinition, parseSource, propertyKey, readObject, readValue, unwrap } from "./source";

interface Edit {
  start: number;
  end: number;
  text: string;
  /** Sequence number, to keep insertions at one position in the order they were made. */
  seq: number;
}

class PatchContext {
  readonly edits: Edit[] = [];
  private seq = 0;
  constructor(
    readonly sf: ts.SourceFile,
    readonly kind: DefinitionKind,
  ) {}
  add(start: number, end: number, text: string) {
    this.edits.push({ start, end, text, seq: this.seq++ });
  }
  indentAt(pos: number): number {
    const text = this.sf.text;
    const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
    let i = lineStart;
    while (text[i] === " " || text[i] === "\t") i++;
    return i - lineStart;
  }
  isMultiline(node: ts.Node): boolean {
    return node.getText(this.sf).includes("\n");
  }
}

const child = (path: string, key: string | number) => (path === "" ? String(key) : `${path}.${key}`);

/**
 * Removes the elements of `list` that are not in `keep` and inserts `inserts` (text of new elements, each after the
 * kept element with the given index in `list`, or at the start for -1), handling commas and line breaks.
 */
function editList(
  ctx: PatchContext,
  container: ts.Node,
  list: readonly ts.Node[],
  keep: ReadonlySet<number>,
  inserts: ReadonlyArray<{ after: number; text: string }>,
): void {
  const multiline = ctx.isMultiline(container);
  // Removal runs.
  let i = 0;
  while (i < list.length) {
    if (keep.has(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < list.length && !keep.has(j + 1)) j++;
    const first = list[i]!;
    const last = list[j]!;
    if (j + 1 < list.length) {
      const next = list[j + 1]!;
      // At the start of a one-line list, take the space before the next element too (`[a, b]` → `[b]`).
      const between = ctx.sf.text.slice(next.getFullStart(), next.getStart(ctx.sf));
      const end = i === 0 && /^[ \t]*$/.test(between) ? next.getStart(ctx.sf) : next.getFullStart();
      ctx.add(first.getFullStart(), end, "");
    }
    else ctx.add(list[i - 1]!.getEnd(), last.getEnd(), "");
    i = j + 1;
  }
  for (const ins of inserts) {
    if (ins.after >= 0) {
      const anchor = list[ins.after]!;
      const sep = multiline ? `,\n${" ".repeat(ctx.indentAt(anchor.getStart(ctx.sf)))}` : ", ";
      ctx.add(anchor.getEnd(), anchor.getEnd(), `${sep}${ins.text}`);
    } else {
      const firstKept = list.find((_, idx) => keep.has(idx))!;
      const start = firstKept.getStart(ctx.sf);
      const sep = multiline ? `,\n${" ".repeat(ctx.indentAt(start))}` : ", ";
      ctx.add(start, start, `${ins.text}${sep}`);
    }
  }
}

function replaceNode(ctx: PatchContext, node: ts.Node, value: DocValue, path: string): void {
  const start = node.getStart(ctx.sf);
  const text = toSource(value, { kind: ctx.kind, path, indent: ctx.indentAt(start) });
  const parent = node.parent;
  if (parent && ts.isPropertyAssignment(parent) && parent.initializer === node) {
    // A property's whole value: also replace the line break a long old value may have started with.
    const colon = ctx.sf.text.indexOf(":", parent.name.getEnd());
    if (colon !== -1 && colon < start) {
      ctx.add(colon + 1, node.getEnd(), ` ${text}`);
      return;
    }
  }
  ctx.add(start, node.getEnd(), text);
}

function diffValue(ctx: PatchContext, node: ts.Expression, next: DocValue, path: string): void {
  const e = unwrap(node);
  const current = readValue(node, ctx.sf);
  if (docEqual(current, next)) return;
  if (isCodeMarker(next) && isCodeMarker(current)) return; // code is never rewritten
  if (ts.isObjectLiteralExpression(e) && isDocObject(next) && readObject(e, ctx.sf)) return diffObject(ctx, e, next, path);
  if (ts.isArrayLiteralExpression(e) && Array.isArray(next) && Array.isArray(current)) return diffArray(ctx, e, next, path);
  replaceNode(ctx, e, next, path);
}

function rank(order: readonly string[], key: string): number {
  const i = order.indexOf(key);
  return i === -1 ? order.length : i;
}

function diffObject(ctx: PatchContext, obj: ts.ObjectLiteralExpression, next: DocObject, path: string): void {
  const props = obj.properties;
  const keys = props.map((p) => (p.name ? propertyKey(p.name) : undefined));
  const keep = new Set<number>();
  props.forEach((prop, i) => {
    const key = keys[i];
    if (key === undefined || next[key] === undefined) return;
    keep.add(i);
    const value = next[key];
    if (ts.isPropertyAssignment(prop)) diffValue(ctx, prop.initializer, value, child(path, key));
    else if (!isCodeMarker(value)) {
      const start = prop.getStart(ctx.sf);
      ctx.add(start, prop.getEnd(), `${keyText(key)}: ${toSource(value, { kind: ctx.kind, path: child(path, key), indent: ctx.indentAt(start) })}`);
    }
  });
  const existing = new Set(keys.filter((k): k is string => k !== undefined));
  const order = keyOrderAt(ctx.kind, path);
  const added = Object.keys(next)
    .filter((k) => next[k] !== undefined && !existing.has(k))
    .sort((a, b) => rank(order, a) - rank(order, b));
  if (added.length === 0 && keep.size === props.length) return;
  if (keep.size === 0) return replaceNode(ctx, obj, next, path);
  const keptIdx = [...keep].sort((a, b) => a - b);
  const indent = ctx.indentAt(props[keptIdx[0]!]!.getStart(ctx.sf));
  const inserts = added.map((key) => {
    // After the last kept key that the order puts before this one; else before the first kept key.
    let after = -1;
    for (const idx of keptIdx) if (rank(order, keys[idx]!) <= rank(order, key)) after = idx;
    if (after === -1 && rank(order, key) >= order.length) after = keptIdx[keptIdx.length - 1]!;
    const text = `${keyText(key)}: ${toSource(next[key] as DocValue, { kind: ctx.kind, path: child(path, key), indent })}`;
    return { after, text };
  });
  // Keys inserted at the start go in order before the first kept key; keys after one anchor keep their order.
  editList(ctx, obj, props, keep, inserts);
}

/** Longest common subsequence of equal elements: pairs of [oldIndex, newIndex]. */
function lcs(a: readonly DocValue[], b: readonly DocValue[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] = docEqual(a[i], b[j]) ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (docEqual(a[i], b[j])) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

function diffArray(ctx: PatchContext, arr: ts.ArrayLiteralExpression, next: DocValue[], path: string): void {
  const elements = arr.elements;
  const current = elements.map((el) => readValue(el, ctx.sf));
  const pairs = lcs(current, next);
  const keep = new Set<number>();
  const inserts: Array<{ after: number; text: string }> = [];
  const indent = elements.length > 0 ? ctx.indentAt(elements[0]!.getStart(ctx.sf)) : ctx.indentAt(arr.getStart(ctx.sf));
  let lastKept = -1;
  let oi = 0;
  let ni = 0;
  const gap = (oEnd: number, nEnd: number) => {
    // Pair the elements of a gap in order (inner edits keep comments), remove or insert the rest.
    while (oi < oEnd && ni < nEnd) {
      keep.add(oi);
      diffValue(ctx, elements[oi]!, next[ni]!, child(path, ni));
      lastKept = oi;
      oi++;
      ni++;
    }
    oi = oEnd;
    while (ni < nEnd) {
      inserts.push({ after: lastKept, text: toSource(next[ni]!, { kind: ctx.kind, path: child(path, ni), indent }) });
      ni++;
    }
  };
  for (const [o, n] of pairs) {
    gap(o, n);
    keep.add(o);
    lastKept = o;
    oi = o + 1;
    ni = n + 1;
  }
  gap(elements.length, next.length);
  if (keep.size === 0) return replaceNode(ctx, arr, next, path);
  editList(ctx, arr, elements, keep, inserts);
}

function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || (a.end - a.start) - (b.end - b.start) || a.seq - b.seq);
  let out = "";
  let pos = 0;
  for (const edit of sorted) {
    if (edit.start < pos) throw new Error(`overlapping edits at ${edit.start} (internal error of the definition writer)`);
    out += text.slice(pos, edit.start) + edit.text;
    pos = edit.end;
  }
  return out + text.slice(pos);
}

export type PatchResult = { ok: true; text: string; changed: boolean } | { ok: false; reason: string };

/** Rewrites the default export of `text` so that it reads as `next`, touching only what changed. */
export function patchDefinitionSource(text: string, next: DocObject, kind: DefinitionKind): PatchResult {
  const sf = parseSource(text);
  const located = locateDefinition(sf);
  if (!located.ok) return located;
  const obj = located.located.object;
  if (!readObject(obj, sf)) return { ok: false, reason: "the default export's object uses spreads or computed keys" };
  const ctx = new PatchContext(sf, kind);
  diffObject(ctx, obj, next, "");
  if (ctx.edits.length === 0) return { ok: true, text, changed: false };
  const out = applyEdits(text, ctx.edits);
  return { ok: true, text: out, changed: out !== text };
}
