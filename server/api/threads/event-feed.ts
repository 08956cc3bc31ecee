import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import type { EventBus, EventLog } from "@/server/runtime/ports";
import { wakeLoop } from "../live/wake-loop";

const PAGE = 500;

/**
 * A thread's events from `afterSeq` on, as an async stream of batches: subscribe to the bus first, replay the event
 * log after `afterSeq`, de-duplicate by sequence, then tail live. Shared by the REST SSE endpoint and the tRPC
 * subscription, so both resume without losing or repeating an event. Live-only events (token deltas) pass through
 * without a seq check. A batch is a page of the log, or what the bus delivered since the last turn (a transaction's
 * events arrive together), with any gap before them filled: in order, never empty.
 */
export async function* threadEventBatches(
  deps: { bus: EventBus; events: EventLog },
  threadId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<ThreadEventEnvelope[]> {
  let last = afterSeq;
  let queue: ThreadEventEnvelope[] = [];
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
      const page = await deps.events.after(threadId, last, PAGE);
      const batch: ThreadEventEnvelope[] = [];
      for (const env of page) {
        if (env.seq <= last) continue;
        last = env.seq;
        batch.push(env);
      }
      if (batch.length > 0) yield batch;
      if (page.length < PAGE) break;
    }
    do {
      const batch: ThreadEventEnvelope[] = [];
      while (queue.length > 0 && !signal.aborted) {
        // Taken whole: what arrives during a gap's read below waits for the next round of this loop.
        const taken = queue;
        queue = [];
        for (const env of taken) {
          if (env.persisted) {
            if (env.seq <= last) continue;
            if (env.seq > last + 1) {
              // A gap (an event committed while we were between reads): fill it from the log in order.
              for (const missed of await deps.events.after(threadId, last, env.seq - last - 1)) {
                if (missed.seq > last && missed.seq < env.seq) {
                  last = missed.seq;
                  batch.push(missed);
                }
              }
            }
            last = env.seq;
          }
          batch.push(env);
        }
      }
      if (batch.length > 0 && !signal.aborted) yield batch;
    } while (!(await wakes.next()).done);
  } finally {
    await wakes.return?.();
  }
}

/** The same stream, one event at a time (the tRPC subscription's and the chat feed's form). */
export async function* threadEventFeed(
  deps: { bus: EventBus; events: EventLog },
  threadId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<ThreadEventEnvelope> {
  for await (const batch of threadEventBatches(deps, threadId, afterSeq, signal)) yield* batch;
}
