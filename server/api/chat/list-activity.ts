import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import { visibleThreadIds } from "../auth/access";
import { wakeLoop } from "../live/wake-loop";

/** Events that change what the thread list shows. */
const LIST_EVENTS = new Set(["thread.status", "message.created", "thread.handoff", "message.updated"]);

/** Ids of threads with new activity (status, messages, handoffs) the caller may see, batched every 300 ms. */
export async function* threadListActivity(app: App, caller: Caller, signal: AbortSignal | undefined) {
  const changed = new Set<string>();
  const listen = (wake: () => void) =>
    app.bus.subscribeAll((env) => {
      if (!LIST_EVENTS.has(env.event.type)) return;
      changed.add(env.threadId);
      wake();
    });
  for await (const _ of wakeLoop(listen, signal, 300)) {
    const pending = [...changed];
    changed.clear();
    const ids = [...(await visibleThreadIds(app, caller, pending))];
    if (ids.length > 0) yield { threadIds: ids };
  }
}
