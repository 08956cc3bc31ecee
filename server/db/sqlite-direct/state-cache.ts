import type { ThreadRecord } from "@/server/runtime/ports";

type State = ThreadRecord["state"];

/**
 * The parsed `state` of recently read threads, by the exact JSON text it was parsed from. A step reads its thread
 * two or three times while the state changes once: reading the same text again returns the same parsed (zod-checked)
 * object instead of parsing it again. Entries are deep-frozen, since every reader shares them (state is replaced,
 * never edited in place). SQLite only; bounded to the most recently used threads.
 */
export class StateCache {
  private readonly entries = new Map<string, { text: string; state: State }>();
  constructor(private readonly maxThreads = 256) {}

  /** The state parsed from `text` for the thread, if that is the text last seen. */
  get(threadId: string, text: string): State | undefined {
    const e = this.entries.get(threadId);
    if (!e || e.text !== text) return undefined;
    this.entries.delete(threadId);
    this.entries.set(threadId, e);
    return e.state;
  }

  /** Keep `state` (frozen here) as the parse of `text`; returns it. */
  set(threadId: string, text: string, state: State): State {
    deepFreeze(state);
    this.entries.delete(threadId);
    this.entries.set(threadId, { text, state });
    if (this.entries.size > this.maxThreads) this.entries.delete(this.entries.keys().next().value!);
    return state;
  }

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }

  clear(): void {
    this.entries.clear();
  }
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
