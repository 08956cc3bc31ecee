import { z } from "zod";
import { messageChild } from "../inspector/actions";
import { subtreeActivity } from "../inspector/activity";
import { nodeDetail } from "../inspector/node-detail";
import { llmLog, subtreeTimeline } from "../inspector/timeline";
import { inspectorTree } from "../inspector/tree";
import { assertThreadAccess } from "../auth/access";
import { publicProcedure, router, toTrpcError, TRPCError } from "../trpc";

const threadId = z.object({ threadId: z.string().min(1) });

/** The inspector: a thread's live subagent tree, each node's detail, the subtree's timeline and request logs. */
export const inspectorRouter = router({
  tree: publicProcedure.input(threadId).query(({ ctx, input }) => inspectorTree(ctx.app, input.threadId)),
  node: publicProcedure.input(threadId).query(({ ctx, input }) => nodeDetail(ctx.app, input.threadId)),
  timeline: publicProcedure.input(threadId).query(({ ctx, input }) => subtreeTimeline(ctx.app, input.threadId)),
  /** A request log: only for a caller who may see the thread that made the request. */
  log: publicProcedure.input(z.object({ logId: z.string().min(1) })).query(async ({ ctx, input }) => {
    const threadId = await ctx.app.queries.threadAccess.threadOfLog(input.logId);
    if (threadId) await assertThreadAccess(ctx.app, ctx.caller, threadId).catch(toTrpcError);
    return llmLog(ctx.app, input.logId);
  }),
  /** Send a logged request again (as it was or edited, to its model or another) and compare: the thread is untouched. */
  replay: publicProcedure
    .input(z.object({ logId: z.string().min(1), model: z.string().min(1).optional(), body: z.record(z.string(), z.unknown()).optional() }))
    .mutation(async ({ ctx, input, signal }) => {
      const threadId = await ctx.app.queries.threadAccess.threadOfLog(input.logId);
      if (!threadId) throw new TRPCError({ code: "NOT_FOUND", message: `Request log ${input.logId} not found` });
      await assertThreadAccess(ctx.app, ctx.caller, threadId).catch(toTrpcError);
      const { logId, ...rest } = input;
      return ctx.app.runtime.replayRequest(threadId, logId, rest, signal);
    }),
  /** `subagent_message` to a resumable child, sent from the UI as its parent would. */
  messageChild: publicProcedure
    .input(z.object({ parentId: z.string().min(1), childId: z.string().min(1), message: z.string().trim().min(1).max(100_000) }))
    .mutation(async ({ ctx, input }) => {
      await assertThreadAccess(ctx.app, ctx.caller, input.parentId).catch(toTrpcError);
      return messageChild(ctx.app, input);
    }),
  /** Batches of changed thread ids in the subtree (the UI refetches what they touch). */
  activity: publicProcedure.input(threadId).subscription(({ ctx, input, signal }) => subtreeActivity(ctx.app, input.threadId, signal)),
});
