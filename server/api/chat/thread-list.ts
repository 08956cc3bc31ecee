import { z } from "zod";
import type { Caller } from "@/shared/caller";
import type { App } from "../app-context";
import { ownerFilter, visibleThreadIds } from "../auth/access";
import { threadView } from "../threads/views";

export const threadListInput = z.object({
  search: z.string().max(200).optional(),
  agentId: z.string().optional(),
  status: z.enum(["running", "idle", "terminated"]).optional(),
  /** Only threads with a tool call waiting for a human decision (listed with their ancestors). */
  awaitingApproval: z.boolean().optional(),
  /** Latest activity first (default), or newest first by creation. */
  sort: z.enum(["activity", "created"]).default("activity"),
  /** Only the threads of this user id, or `me` (the caller's own). Administrators only: others see their own anyway. */
  owner: z.string().min(1).max(100).optional(),
  /** Created on or after this day (YYYY-MM-DD, UTC). */
  createdFrom: z.iso.date({ error: "createdFrom must be a date such as 2026-11-27" }).optional(),
  /** Created on or before this day (YYYY-MM-DD, UTC), the whole day included. */
  createdTo: z.iso.date({ error: "createdTo must be a date such as 2026-11-27" }).optional(),
  limit: z.number().int().min(1).max(500).default(100),
});

/** Threads for the list: roots with their descendants, or matches with their ancestors; last message previews. */
export async function listThreads(app: App, input: z.output<typeof threadListInput>, caller: Caller) {
  const { owner, createdFrom, createdTo, ...rest0 } = input;
  const chosen = owner === "me" ? (caller.userId ?? undefined) : owner;
  const createdAt =
    createdFrom || createdTo
      ? {
          ...(createdFrom ? { gte: new Date(`${createdFrom}T00:00:00.000Z`) } : {}),
          ...(createdTo ? { lt: new Date(Date.parse(`${createdTo}T00:00:00.000Z`) + 86_400_000) } : {}),
        }
      : undefined;
  const { threads, ...rest } = await app.queries.threadList({
    ...rest0,
    createdAt,
    userId: ownerFilter(caller),
    owner: chosen,
  });
  return {
    threads: threads.map((t) => ({ ...threadView(t.thread), preview: t.preview, context: t.context, children: t.children, awaiting_approval: t.awaitingApproval })),
    ...rest,
  };
}

/** Direct children of a thread (child-agent cards show their live status). */
export async function childThreads(app: App, threadId: string) {
  return (await app.queries.threadCards.children(threadId)).map((r) => threadView(r));
}

/** The children this thread's tool calls spawned, keyed by the call: a blocking call's card follows its child live. */
export async function childCalls(app: App, threadId: string) {
  await app.runtime.getThread(threadId);
  return app.queries.threadCards.childCalls(threadId);
}

/** Statuses of given threads the caller may see (child cards that link to threads found in message text). */
export async function threadStatuses(app: App, caller: Caller, ids: string[]) {
  const visible = await visibleThreadIds(app, caller, ids);
  const rows = await app.queries.threadCards.statuses([...visible]);
  return rows.map((r) => ({ id: r.id, status: r.status, agent_id: r.agentId, name: r.name, stop_reason: r.stopReason }));
}
