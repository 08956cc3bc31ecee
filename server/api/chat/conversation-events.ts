import { tracked } from "@trpc/server";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import type { App } from "../app-context";
import { threadEventFeed } from "../threads/event-feed";
import { inflight, type Inflight } from "./inflight-tracker";

function eventPayload(env: ThreadEventEnvelope) {
  return { seq: env.seq, persisted: env.persisted, at: env.at, ...env.event };
}

const snapshotEvent = (p: Inflight) => ({
  type: "token.snapshot" as const,
  stepId: p.stepId,
  side: p.side,
  content: p.content,
  reasoning: p.reasoning,
  seq: p.seq,
  persisted: false,
});

/**
 * The thread's events after `lastEventId` (tracked: reconnects resume), plus a `token.snapshot` with the text of
 * the step being streamed, placed right after the last persisted event it follows.
 */
export async function* conversationEvents(app: App, threadId: string, lastEventId: string | null | undefined, signal: AbortSignal | undefined) {
  await app.runtime.getThread(threadId);
  const after = Number.parseInt(lastEventId ?? "0", 10) || 0;
  const abort = new AbortController();
  signal?.addEventListener("abort", () => abort.abort());
  const tracker = inflight(app.bus);
  const feed = threadEventFeed({ bus: app.bus, events: app.persistence.events }, threadId, after, abort.signal);
  // The first next() subscribes the feed to the bus synchronously; the partial taken in the same tick is exact.
  let step = feed.next();
  let partial = tracker.get(threadId) ?? null;
  if (partial && partial.seq <= after) {
    yield snapshotEvent(partial);
    partial = null;
  }
  try {
    for (;;) {
      const r = await step;
      if (r.done) break;
      const env = r.value;
      if (env.persisted) yield tracked(String(env.seq), eventPayload(env));
      else yield eventPayload(env);
      if (partial && env.persisted && env.seq >= partial.seq) {
        yield snapshotEvent(partial);
        partial = null;
      }
      step = feed.next();
    }
  } finally {
    abort.abort();
    await feed.return(undefined);
  }
}
