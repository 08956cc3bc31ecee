import { z } from "zod";
import { ownerOf } from "../auth/access";
import { approvalJson, decisionInput } from "../threads/approval-handlers";
import { forkFields } from "../threads/fork-handlers";
import { threadView } from "../threads/views";
import { publicProcedure, router } from "../trpc";

const threadId = z.object({ threadId: z.string().min(1) });

/** Approvals and forks for the UI: the same operations as the REST API (`/approvals`, `/fork`). */
export const controlsRouter = router({
  /** Pending approval requests of the thread and its descendants, each with the path to its thread. */
  approvals: publicProcedure.input(threadId).query(async ({ ctx, input }) => (await ctx.app.runtime.listApprovals(input.threadId)).map(approvalJson)),
  decide: publicProcedure
    .input(decisionInput)
    .mutation(async ({ ctx, input }) => {
      const { threadId: id, toolCallId, ...body } = input;
      return approvalJson(await ctx.app.runtime.decideApproval(id, toolCallId, { ...body, userId: ownerOf(ctx.caller) }));
    }),
  fork: publicProcedure.input(threadId.extend(forkFields.shape)).mutation(async ({ ctx, input }) => {
    const source = await ctx.app.runtime.getThread(input.threadId);
    return threadView(await ctx.app.runtime.fork(source.id, { messageId: input.messageId, edit: input.edit, regenerate: input.regenerate, userId: ownerOf(ctx.caller) ?? source.userId }));
  }),
});
