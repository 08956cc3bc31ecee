import type { ThreadEventEnvelope } from "@/shared/runtime-events";

/** Reads persisted events after `afterSeq` (the runtime's `EventLog.after`). */
export type ReadEventsAfter = (threadId: string, afterSeq: number, limit: number) => Promise<ThreadEventEnvelope[]>;

/**
 * An envelope, or a reference to persisted events up to `seq`. `from` (a catch-up after a reconnect) is where to start
 * reading for a thread with no remembered seq: events after it were missed; without it only the row `seq` is read.
 */
export type SequencerItem = { kind: "envelope"; envelope: ThreadEventEnvelope } | { kind: "ref"; threadId: string; seq: number; from?: number };

export interface ThreadSequencerOptions {
  readEvents: ReadEventsAfter;
  deliver: (env: ThreadEventEnvelope) => void;
  /** Threads whose last delivered seq is remembered (oldest forgotten first). */
  maxThreads?: number;
  /** Tries of a log read before an item is given up (the next event or reconnect catches up). */
  readAttempts?: number;
  onError?: (err: unknown) => void;
}

const PAGE = 500;

/**
 * Delivers each thread's persisted events once and in sequence order, whatever order they arrive in from several
 * processes. It remembers the last seq delivered per thread: an older or repeated event is dropped; an event after a
 * gap (another process's event still in flight, or one lost while disconnected) first has the gap filled from the
 * event log. References (`{threadId, seq}` of an event too large to notify) are read from the log the same way.
 * Live-only events (token deltas, which carry the seq of the persisted event they follow) wait for that event.
 * A thread with a log read in progress queues its later items, so per-thread order holds; other threads go on.
 */
export class ThreadSequencer {
  private readonly last = new Map<string, number>();
  private readonly waiting = new Map<string, SequencerItem[]>();
  private readonly maxThreads: number;
  private readonly readAttempts: number;

  constructor(private readonly opts: ThreadSequencerOptions) {
    this.maxThreads = opts.maxThreads ?? 50_000;
    this.readAttempts = opts.readAttempts ?? 3;
  }

  push(item: SequencerItem): void {
    const threadId = item.kind === "ref" ? item.threadId : item.envelope.threadId;
    const queue = this.waiting.get(threadId);
    if (queue) {
      queue.push(item);
      return;
    }
    if (this.tryNow(threadId, item)) return;
    this.waiting.set(threadId, [item]);
    void this.drain(threadId);
  }

  /** The last seq delivered for a thread, if remembered. */
  lastSeq(threadId: string): number | undefined {
    return this.last.get(threadId);
  }

  /** Threads with a log read in progress (for tests and health). */
  get busyThreads(): number {
    return this.waiting.size;
  }

  /** Resolves once no thread has a log read in progress. */
  async idle(): Promise<void> {
    while (this.waiting.size > 0) await new Promise((r) => setTimeout(r, 5));
  }

  /** Handle an item without reading the log, if possible; false when it needs a read. */
  private tryNow(threadId: string, item: SequencerItem): boolean {
    const last = this.last.get(threadId);
    if (item.kind === "ref") return last !== undefined && item.seq <= last;
    const env = item.envelope;
    if (!env.persisted) {
      if (last !== undefined && env.seq > last) return false;
      this.opts.deliver(env);
      return true;
    }
    if (last !== undefined && env.seq <= last) return true;
    if (last !== undefined && env.seq > last + 1) return false;
    this.remember(threadId, env.seq);
    this.opts.deliver(env);
    return true;
  }

  private async drain(threadId: string): Promise<void> {
    const queue = this.waiting.get(threadId)!;
    let first = true;
    while (queue.length > 0) {
      const item = queue[0]!;
      if (first || !this.tryNow(threadId, item)) await this.readThenDeliver(threadId, item);
      first = false;
      queue.shift();
    }
    this.waiting.delete(threadId);
  }

  /** Fill from the log up to the item, then deliver the item itself (an envelope) or the row it names (a ref). */
  private async readThenDeliver(threadId: string, item: SequencerItem): Promise<void> {
    const known = this.last.get(threadId);
    const upTo = item.kind === "ref" ? item.seq : item.envelope.persisted ? item.envelope.seq - 1 : item.envelope.seq;
    // Without a remembered seq the subscribers' own backfill covers the past: read only the referenced row.
    let from = known ?? (item.kind === "ref" ? Math.min(item.from ?? item.seq - 1, item.seq - 1) : upTo);
    try {
      while (from < upTo) {
        const page = await this.read(threadId, from, Math.min(PAGE, upTo - from));
        for (const env of page) {
          if (env.seq > upTo) break;
          const last = this.last.get(threadId);
          if (last !== undefined && env.seq <= last) continue;
          this.remember(threadId, env.seq);
          this.opts.deliver(env);
        }
        if (page.length === 0) break;
        from = page[page.length - 1]!.seq;
      }
    } catch (err) {
      this.opts.onError?.(err);
    }
    if (item.kind === "envelope") {
      const env = item.envelope;
      const last = this.last.get(threadId);
      if (env.persisted) {
        if (last !== undefined && env.seq <= last) return;
        this.remember(threadId, env.seq);
      }
      this.opts.deliver(env);
    }
  }

  private async read(threadId: string, afterSeq: number, limit: number): Promise<ThreadEventEnvelope[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.opts.readEvents(threadId, afterSeq, limit);
      } catch (err) {
        if (attempt >= this.readAttempts) throw err;
        await new Promise((r) => setTimeout(r, 100 * 4 ** (attempt - 1)));
      }
    }
  }

  private remember(threadId: string, seq: number): void {
    this.last.delete(threadId);
    this.last.set(threadId, seq);
    if (this.last.size > this.maxThreads) {
      for (const key of this.last.keys()) {
        if (this.last.size <= this.maxThreads) break;
        if (!this.waiting.has(key)) this.last.delete(key);
      }
    }
  }
}
