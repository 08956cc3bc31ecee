import type { EventBus } from "../ports";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";

/** The in-process event bus of the embedded mode. Listener errors are isolated from the publisher. */
export class InMemoryEventBus implements EventBus {
  private readonly byThread = new Map<string, Set<(e: ThreadEventEnvelope) => void>>();
  private readonly all = new Set<(e: ThreadEventEnvelope) => void>();

  publish(envelope: ThreadEventEnvelope): void {
    const listeners = this.byThread.get(envelope.threadId);
    if (listeners) for (const l of [...listeners]) safeCall(l, envelope);
    for (const l of [...this.all]) safeCall(l, envelope);
  }

  subscribe(threadId: string, listener: (e: ThreadEventEnvelope) => void): () => void {
    let set = this.byThread.get(threadId);
    if (!set) this.byThread.set(threadId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byThread.delete(threadId);
    };
  }

  subscribeAll(listener: (e: ThreadEventEnvelope) => void): () => void {
    this.all.add(listener);
    return () => this.all.delete(listener);
  }
}

function safeCall(listener: (e: ThreadEventEnvelope) => void, e: ThreadEventEnvelope) {
  try {
    listener(e);
  } catch (err) {
    console.error("[events] a subscriber threw:", err);
  }
}
