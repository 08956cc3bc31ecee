import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import type { EventBus, EventLog } from "@/server/runtime/ports";

/**
 * A thread's events from `afterSeq` on, as an async stream: subscribe to the bus first, replay the event log after
 * `afterSeq`, de-duplicate by sequence, then tail live. Shared by the REST SSE endpoint and the tRPC subscription, so
 * both resume without losing or repeating an event. Live-only events (token deltas) pass through without a seq check.
 */
export async function* threadEventFeed(
  deps: { bus: EventBus; events: EventLog },
  threadId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<ThreadEventEnvelope> {
  let last = afterSeq;
  const queue: ThreadEventEnvelope[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = deps.bus.subscribe(threadId, (env) => {
    queue.push(env);
    const w = wake;
    wake = null;
    w?.();
  });
  const onAbort = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  signal.addEventListener("abort", onAbort);
  try {
    for (;;) {
      const page = await deps.events.after(threadId, last, 500);
      for (const env of page) {
        if (env.seq <= last) continue;
        last = env.seq;
        yield env;
      }
      if (page.length < 500) break;
    }
    while (!signal.aborted) {
      if (queue.length === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const env = queue.shift()!;
      if (env.persisted) {
        if (env.seq <= last) continue;
        if (env.seq > last + 1) {
          // A gap (an event committed while we were between reads): fill it from the log in order.
          for (const missed of await deps.events.after(threadId, last, env.seq - last - 1)) {
            if (missed.seq > last && missed.seq < env.seq) {
              last = missed.seq;
              yield missed;
            }
          }
        }
        last = env.seq;
      }
      yield env;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}
