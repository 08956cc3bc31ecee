import type { EventBus, Persistence, Stores } from "../ports";
import type { RuntimeEvent, ThreadEventEnvelope } from "./event-types";

export type Emit = (threadId: string, event: RuntimeEvent) => Promise<ThreadEventEnvelope>;

/**
 * Writes runtime events: persisted events are appended to the thread's event log inside the caller's transaction and
 * published on the bus only after it commits (a subscriber never sees an event the database does not have); token
 * deltas are published live, never persisted.
 */
export class EventPublisher {
  private readonly lastSeq = new Map<string, number>();

  constructor(
    private readonly persistence: Persistence,
    private readonly bus: EventBus,
  ) {}

  /** Run `fn` in one transaction; the events it emits are published once the transaction commits. */
  async commit<T>(fn: (tx: Stores, emit: Emit) => Promise<T>): Promise<T> {
    const pending: ThreadEventEnvelope[] = [];
    const result = await this.persistence.transaction(async (tx) => {
      const emit: Emit = async (threadId, event) => {
        const env = await tx.events.append(threadId, event);
        pending.push(env);
        return env;
      };
      return fn(tx, emit);
    });
    for (const env of pending) this.publish(env);
    return result;
  }

  /** Append and publish one event on its own. */
  async emit(threadId: string, event: RuntimeEvent): Promise<ThreadEventEnvelope> {
    return this.commit((_tx, emit) => emit(threadId, event));
  }

  /** Publish a live-only event (token deltas): it carries the seq of the last persisted event of the thread. */
  live(threadId: string, event: RuntimeEvent): void {
    this.bus.publish({ threadId, seq: this.lastSeq.get(threadId) ?? 0, persisted: false, at: new Date().toISOString(), event });
  }

  private publish(env: ThreadEventEnvelope): void {
    const prev = this.lastSeq.get(env.threadId) ?? 0;
    if (env.seq > prev) this.lastSeq.set(env.threadId, env.seq);
    this.bus.publish(env);
  }

  /** Forget a thread's cached seq (idle threads must not stay resident). */
  forget(threadId: string): void {
    this.lastSeq.delete(threadId);
  }
}
