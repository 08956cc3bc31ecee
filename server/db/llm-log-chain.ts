/**
 * LLM request logs stored as deltas. Each request of a thread repeats the conversation so far, so storing every one in
 * full grows with the square of the thread's length (a 50-step loop: 289 KB; a long run with a large context:
 * gigabytes). A row instead names the previous row of its thread as its base and stores only what differs: the
 * messages after the shared prefix, and the top-level fields that changed. A full row (a keyframe) starts each chain
 * of `KEYFRAME_EVERY` rows, so reading one back takes at most that many rows.
 *
 * Stored form of a delta row: `{ "$delta": { base, keep, same }, ...changed fields, messages: [suffix] }`: the request
 * is the base's (expanded) request with its first `keep` messages, then `messages`; the fields listed in `same` come
 * from the base, the others from the row. Rows without `$delta` are stored in full (and every row written before
 * this format).
 */

import { setRecent } from "@/server/runtime/bounded-map";

export const DELTA_KEY = "$delta";
/** A chain is at most this long: one full row, then deltas. */
export const KEYFRAME_EVERY = 32;
/** Threads whose last request is remembered (the oldest is forgotten first; an activation's end forgets its own). */
const MAX_THREADS = 2000;

type Json = Record<string, unknown>;

export interface DeltaHeader {
  base: string;
  keep: number;
  same: string[];
}

interface Last {
  id: string;
  request: Json;
  messages: unknown[];
  depth: number;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Equal as JSON text would be (keys in any order; a key holding `undefined` is the same as no key). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (typeof (a as { toJSON?: unknown }).toJSON === "function" || typeof (b as { toJSON?: unknown }).toJSON === "function") {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  let n = 0;
  for (const k in a as Json) {
    const v = (a as Json)[k];
    if (v === undefined) continue;
    n++;
    if (!jsonEqual(v, (b as Json)[k])) return false;
  }
  for (const k in b as Json) if ((b as Json)[k] !== undefined) n--;
  return n === 0;
}

/** What to store for a request: the request itself (a keyframe) or its delta against the thread's last one. */
export type Encoded = { delta: false } | { delta: true; stored: Json; depth: number };

/** The last request logged per thread, to write the next one as a delta. In memory only: after a restart a chain starts over. */
export class RequestChains {
  private readonly last = new Map<string, Last>();

  encode(threadId: string, request: unknown): Encoded {
    const prev = this.last.get(threadId);
    if (!prev || prev.depth + 1 >= KEYFRAME_EVERY || !isObject(request) || !Array.isArray(request.messages)) return { delta: false };
    const messages = request.messages as unknown[];
    let keep = 0;
    const max = Math.min(prev.messages.length, messages.length);
    while (keep < max && jsonEqual(prev.messages[keep], messages[keep])) keep++;
    if (keep === 0) return { delta: false };
    const same: string[] = [];
    const stored: Json = {};
    for (const k in request) {
      const v = request[k];
      if (k === "messages" || v === undefined) continue;
      if (k in prev.request && jsonEqual(prev.request[k], v)) same.push(k);
      else stored[k] = v;
    }
    stored.messages = messages.slice(keep);
    return { delta: true, stored: { [DELTA_KEY]: { base: prev.id, keep, same } satisfies DeltaHeader, ...stored }, depth: prev.depth + 1 };
  }

  /** The row is committed: the thread's next request may be stored against it. */
  remember(threadId: string, id: string, request: unknown, depth: number): void {
    if (!isObject(request) || !Array.isArray(request.messages)) {
      this.last.delete(threadId);
      return;
    }
    setRecent(this.last, threadId, { id, request, messages: request.messages as unknown[], depth }, MAX_THREADS);
  }

  forget(threadId: string): void {
    this.last.delete(threadId);
  }

  /** Forget every thread (a rolled-back transaction may have taken a remembered row with it). */
  clear(): void {
    this.last.clear();
  }

  get size(): number {
    return this.last.size;
  }
}

export function deltaHeader(stored: unknown): DeltaHeader | null {
  if (!isObject(stored)) return null;
  const h = stored[DELTA_KEY];
  if (!isObject(h) || typeof h.base !== "string" || typeof h.keep !== "number" || !Array.isArray(h.same)) return null;
  return h as unknown as DeltaHeader;
}

/** A delta applied to its base's full request. */
function applyDelta(stored: Json, h: DeltaHeader, base: Json): Json {
  const out: Json = {};
  const suffix = Array.isArray(stored.messages) ? stored.messages : [];
  for (const k in base) {
    if (k === "messages") out.messages = (Array.isArray(base.messages) ? base.messages.slice(0, h.keep) : []).concat(suffix);
    else if (h.same.includes(k)) out[k] = base[k];
  }
  if (!("messages" in out)) out.messages = suffix;
  for (const k in stored) if (k !== DELTA_KEY && k !== "messages") out[k] = stored[k];
  return out;
}

/**
 * The full requests of stored rows: deltas are applied to their bases, which are read with `load` when they are not
 * among `rows` (a page of a thread's logs usually holds its own bases). A delta whose base is gone is returned as
 * stored, `$delta` header included.
 */
export async function expandRequests(
  rows: { id: string; request: unknown }[],
  load: (ids: string[]) => Promise<{ id: string; request: unknown }[]>,
): Promise<Map<string, unknown>> {
  const stored = new Map<string, unknown>(rows.map((r) => [r.id, r.request]));
  // Read missing bases, a chain level at a time (a chain is at most KEYFRAME_EVERY rows long).
  for (let level = 0; level <= KEYFRAME_EVERY; level++) {
    const missing = new Set<string>();
    for (const value of stored.values()) {
      const h = deltaHeader(value);
      if (h && !stored.has(h.base)) missing.add(h.base);
    }
    if (missing.size === 0) break;
    const found = await load([...missing]);
    for (const r of found) stored.set(r.id, r.request);
    for (const id of missing) if (!stored.has(id)) stored.set(id, undefined);
  }
  const full = new Map<string, unknown>();
  const expand = (id: string, depth: number): unknown => {
    if (full.has(id)) return full.get(id);
    const value = stored.get(id);
    const h = deltaHeader(value);
    let out = value;
    if (h && depth <= KEYFRAME_EVERY) {
      const base = stored.get(h.base) === undefined ? undefined : expand(h.base, depth + 1);
      if (isObject(base)) out = applyDelta(value as Json, h, base);
    }
    full.set(id, out);
    return out;
  };
  const result = new Map<string, unknown>();
  for (const r of rows) result.set(r.id, expand(r.id, 0));
  return result;
}
