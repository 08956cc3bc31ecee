import { DirectPg, type Row, type Runner } from "./connection";

/** The reads of a step's start that ride with its thread read: their rows, once each. */
export interface Prefetched {
  queue?: Promise<Row[]>;
  history?: { from: object; rows: Promise<Row[]> };
  subagents?: Promise<Row[]>;
}

interface Entry extends Prefetched {
  at: number;
}

/**
 * The reads that follow a stepping thread's read at the start of each step (its pending queue, the history since the
 * last step, its registry entries), sent with it in one round trip (pg-direct/threads.ts) and kept here until the
 * executor asks for them, a few statements later.
 *
 * A prefetched read must be what the read would have returned when asked. Other processes' writes are raced by a read
 * made a millisecond later just as well (the queue, the history check and the scheduler cover them); this process's
 * own writes are not: every write the stores here see drops what is held for its thread, any write they cannot
 * attribute (a Prisma store's) drops everything, and what is held is dropped after `maxAgeMs` whatever happened (an
 * activation among many in a busy process may take a while between its reads). Each read is handed out once.
 */
export class PgPrefetch {
  private readonly entries = new Map<string, Entry>();
  /** Threads whose last update here ended their turn or their run: their next read is not a step's. */
  private readonly resting = new Set<string>();
  constructor(private readonly maxAgeMs = 2000) {}

  /** Whether a thread's next read is likely the start of a step (its last update here left a turn running). */
  stepping(threadId: string): boolean {
    return !this.resting.has(threadId);
  }

  /** What the thread's last update here left: a running thread in an active turn steps again. */
  updated(threadId: string, steps: boolean): void {
    if (steps) this.resting.delete(threadId);
    else {
      this.resting.add(threadId);
      if (this.resting.size > 4096) this.resting.delete(this.resting.values().next().value!);
    }
  }

  put(threadId: string, reads: Prefetched): void {
    for (const p of [reads.queue, reads.history?.rows, reads.subagents]) p?.catch(() => {});
    this.entries.delete(threadId);
    this.entries.set(threadId, { ...reads, at: performance.now() });
    // Reads nobody took (a thread read by the API while nothing steps it) go with age: the oldest first.
    if (this.entries.size > 256) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The held read `key` of the thread (removed), or undefined: read it now. */
  take<K extends keyof Prefetched>(threadId: string, key: K): Prefetched[K] | undefined {
    const e = this.entries.get(threadId);
    if (!e) return undefined;
    if (performance.now() - e.at > this.maxAgeMs) {
      this.entries.delete(threadId);
      return undefined;
    }
    const value = e[key];
    e[key] = undefined;
    if (!e.queue && !e.history && !e.subagents) this.entries.delete(threadId);
    return value;
  }

  /** A write of the thread's rows (or one that makes the thread's reads stale). */
  wrote(threadId: string): void {
    if (this.entries.size > 0) this.entries.delete(threadId);
  }

  /** A write whose thread is not known here. */
  wroteAny(): void {
    if (this.entries.size > 0) this.entries.clear();
  }
}

/** A prefetched read's rows, or null when it failed (the caller reads again). */
export async function settled(rows: Promise<Row[]> | undefined): Promise<Row[] | null> {
  if (!rows) return null;
  try {
    return await rows;
  } catch {
    return null;
  }
}

/** The prefetched reads, where the stores read in autocommit (a transaction reads its own snapshot). */
export function prefetchOf(sql: Runner): PgPrefetch | null {
  return sql instanceof DirectPg ? sql.prefetch : null;
}
