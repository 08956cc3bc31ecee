import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import type { EventBus, EventLog } from "@/server/runtime/ports";
import { wakeLoop } from "../live/wake-loop";

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
  // Subscribed before the log is read: what is published meanwhile waits in the queue and is de-duplicated by seq.
  const wakes = wakeLoop(
    (wake) =>
      deps.bus.subscribe(threadId, (env) => {
        queue.push(env);
        wake();
      }),
    signal,
  );
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
    do {
      while (queue.length > 0 && !signal.aborted) {
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
    } while (!(await wakes.next()).done);
  } finally {
    await wakes.return?.();
  }
}
