import { z } from "zod";
import { conversationEvents } from "../chat/conversation-events";
import { threadListActivity } from "../chat/list-activity";
import { conversationSnapshot, olderInput, olderMessages, snapshotInput } from "../chat/snapshot";
import { childCalls, childThreads, listThreads, threadListInput, threadStatuses } from "../chat/thread-list";
import { subtreeUsage } from "../chat/usage";
import { publicProcedure, router } from "../trpc";
import { ownerFilter } from "../auth/access";

const threadId = z.object({ threadId: z.string().min(1) });

/**
 * What the chat UI needs beyond the `threads` router: a consistent conversation snapshot to resume events from, an
 * event stream that also restores the reply being streamed, the thread list with previews and nesting, live list
 * activity, and usage over a thread's subtree.
 */
export const chatRouter = router({
  snapshot: publicProcedure.input(snapshotInput).query(({ ctx, input }) => conversationSnapshot(ctx.app, input)),
  older: publicProcedure.input(olderInput).query(({ ctx, input }) => olderMessages(ctx.app, input)),
  events: publicProcedure
    .input(threadId.extend({ lastEventId: z.string().nullish() }))
    .subscription(({ ctx, input, signal }) => conversationEvents(ctx.app, input.threadId, input.lastEventId, signal)),
  threadList: publicProcedure.input(threadListInput).query(({ ctx, input }) => listThreads(ctx.app, input, ctx.caller)),
  children: publicProcedure.input(threadId).query(({ ctx, input }) => childThreads(ctx.app, input.threadId)),
  /** Threads forked from this one (the caller's own; all for administrators), oldest first. */
  forks: publicProcedure.input(threadId).query(async ({ ctx, input }) =>
    (await ctx.app.queries.threadCards.forks(input.threadId, ownerFilter(ctx.caller))).map((t) => ({
      id: t.id,
      created_at: t.createdAt.toISOString(),
      edited: t.state.fork?.edited ?? false,
      regenerated: t.state.fork?.regeneratedMessageId !== undefined,
      status: t.status,
    })),
  ),
  /** Tokens and cost behind each assistant message; `upTo` (the latest message seq the client has) keys the cache. */
  messageUsage: publicProcedure
    .input(threadId.extend({ upTo: z.number().int().min(0).optional() }))
    .query(async ({ ctx, input }) => {
      await ctx.app.runtime.getThread(input.threadId);
      return ctx.app.queries.messageUsage(input.threadId);
    }),
  childCalls: publicProcedure.input(threadId).query(({ ctx, input }) => childCalls(ctx.app, input.threadId)),
  statuses: publicProcedure
    .input(z.object({ ids: z.array(z.string()).max(500) }))
    .query(({ ctx, input }) => threadStatuses(ctx.app, ctx.caller, input.ids)),
  usage: publicProcedure.input(threadId).query(({ ctx, input }) => subtreeUsage(ctx.app, input.threadId)),
  activity: publicProcedure.subscription(({ ctx, signal }) => threadListActivity(ctx.app, ctx.caller, signal)),
});
