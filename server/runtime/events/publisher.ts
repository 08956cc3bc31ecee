import type { EventBus, Persistence, Stores, TransactionOptions } from "../ports";
import type { RuntimeEvent, ThreadEventEnvelope } from "@/shared/runtime-events";
import { setRecent } from "../bounded-map";

/** Threads whose last published seq is kept (least recently published forgotten first). */
const MAX_TRACKED = 10_000;

/**
 * Record an event inside a `commit` transaction. It is written to the log when the transaction body returns (still
 * inside the transaction), together with the other events of the same thread: one sequence bump for all of them.
 */
export type Emit = (threadId: string, event: RuntimeEvent) => Promise<void>;

/**
 * Writes runtime events: persisted events are appended to the thread's event log inside the caller's transaction and
 * published on the bus only after it commits (a subscriber never sees an event the database does not have); token
 * deltas are published live, never persisted.
 */
export class EventPublisher {
  /**
   * The last persisted seq published per thread, which live events carry. Only threads that stream matter (they
   * publish as they run); an activation's end forgets its thread, and the map stays bounded for the rest (API writes
   * to idle threads).
   */
  private readonly lastSeq = new Map<string, number>();

  constructor(
    private readonly persistence: Persistence,
    private readonly bus: EventBus,
  ) {}

  /**
   * Run `fn` in one transaction. The events it emits are appended to the log at the end of that same transaction (per
   * thread, in emit order, with contiguous seqs), and published in emit order once it commits.
   */
  async commit<T>(fn: (tx: Stores, emit: Emit) => Promise<T>, opts?: TransactionOptions): Promise<T> {
    let written: ThreadEventEnvelope[] = [];
    const result = await this.persistence.transaction(async (tx) => {
      const emitted: { threadId: string; event: RuntimeEvent }[] = [];
      let closed = false;
      const emit: Emit = async (threadId, event) => {
        if (closed) throw new Error(`event ${event.type} emitted after its transaction body returned`);
        emitted.push({ threadId, event });
      };
      const value = await fn(tx, emit);
      closed = true;
      written = await appendAll(tx, emitted);
      return value;
    }, opts);
    for (const env of written) this.publish(env);
    return result;
  }

  /** Append and publish one event on its own. */
  async emit(threadId: string, event: RuntimeEvent): Promise<ThreadEventEnvelope> {
    let env: ThreadEventEnvelope | undefined;
    await this.persistence.transaction(async (tx) => {
      env = await tx.events.append(threadId, event);
    });
    this.publish(env!);
    return env!;
  }

  /** Publish a live-only event (token deltas): it carries the seq of the last persisted event of the thread. */
  live(threadId: string, event: RuntimeEvent): void {
    this.bus.publish({ threadId, seq: this.lastSeq.get(threadId) ?? 0, persisted: false, at: new Date().toISOString(), event });
  }

  private publish(env: ThreadEventEnvelope): void {
    const prev = this.lastSeq.get(env.threadId);
    if (prev === undefined || env.seq > prev) setRecent(this.lastSeq, env.threadId, env.seq, MAX_TRACKED);
    this.bus.publish(env);
  }

  /** Forget a thread's cached seq (idle threads must not stay resident). */
  forget(threadId: string): void {
    this.lastSeq.delete(threadId);
  }

  /** How many threads' seqs are kept (for tests). */
  get tracked(): number {
    return this.lastSeq.size;
  }
}

/** Append emitted events grouped by thread (one append per thread); the envelopes come back in emit order. */
async function appendAll(tx: Stores, emitted: { threadId: string; event: RuntimeEvent }[]): Promise<ThreadEventEnvelope[]> {
  if (emitted.length === 0) return [];
  const byThread = new Map<string, RuntimeEvent[]>();
  for (const { threadId, event } of emitted) {
    const list = byThread.get(threadId);
    if (list) list.push(event);
    else byThread.set(threadId, [event]);
  }
  const envelopes = new Map<string, ThreadEventEnvelope[]>();
  for (const [threadId, events] of byThread) envelopes.set(threadId, await tx.events.appendMany(threadId, events));
  const next = new Map<string, number>();
  return emitted.map(({ threadId }) => {
    const i = next.get(threadId) ?? 0;
    next.set(threadId, i + 1);
    return envelopes.get(threadId)![i]!;
  });
}
