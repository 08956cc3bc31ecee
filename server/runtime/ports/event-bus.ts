import type { ThreadEventEnvelope } from "@/shared/runtime-events";

/** Publishes events to live subscribers (in-process now; PostgreSQL NOTIFY later). */
export interface EventBus {
  publish(envelope: ThreadEventEnvelope): void;
  /** Listen to one thread's events; returns the unsubscribe function. */
  subscribe(threadId: string, listener: (envelope: ThreadEventEnvelope) => void): () => void;
  /** Listen to every thread (thread lists, inspectors). */
  subscribeAll(listener: (envelope: ThreadEventEnvelope) => void): () => void;
}
