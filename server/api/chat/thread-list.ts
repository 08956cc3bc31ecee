import { z } from "zod";
import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import { ownerFilter, visibleThreadIds } from "../auth/access";
import { threadView } from "../threads/views";

export const threadListInput = z.object({
  search: z.string().max(200).optional(),
  agentId: z.string().optional(),
  status: z.enum(["running", "idle", "terminated"]).optional(),
  limit: z.number().int().min(1).max(500).default(100),
});

/** Threads for the list: roots with their descendants, or matches with their ancestors; last message previews. */
export async function listThreads(app: App, input: z.output<typeof threadListInput>, caller: Caller) {
  const { threads, ...rest } = await app.queries.threadList({ ...input, userId: ownerFilter(caller) });
  return {
    threads: threads.map((t) => ({ ...threadView(t.thread), preview: t.preview, context: t.context, children: t.children })),
    ...rest,
  };
}

/** Direct children of a thread (child-agent cards show their live status). */
export async function childThreads(app: App, threadId: string) {
  return (await app.queries.threadCards.children(threadId)).map((r) => threadView(r));
}

/** Statuses of given threads the caller may see (child cards that link to threads found in message text). */
export async function threadStatuses(app: App, caller: Caller, ids: string[]) {
  const visible = await visibleThreadIds(app, caller, ids);
  const rows = await app.queries.threadCards.statuses([...visible]);
  return rows.map((r) => ({ id: r.id, status: r.status, agent_id: r.agentId, name: r.name, stop_reason: r.stopReason }));
}
