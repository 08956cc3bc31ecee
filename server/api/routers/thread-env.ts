import { z } from "zod";
import { listVariables, saveVariables, saveVariablesBody } from "../variables/env-values";
import { publicProcedure, router, toTrpcError } from "../trpc";

const threadId = z.object({ threadId: z.string().min(1) });

/**
 * A thread's own variables (the highest layer of env resolution), edited from the thread's settings. Ownership is
 * checked by the procedure middleware (`threadId`). Values set here apply to this thread and to the children it
 * spawns afterwards; secrets are write-only.
 */
export const threadEnvRouter = router({
  list: publicProcedure.input(threadId).query(async ({ ctx, input }) => {
    await ctx.app.runtime.getThread(input.threadId);
    return listVariables(ctx.app, "thread", input.threadId);
  }),
  save: publicProcedure.input(threadId.extend(saveVariablesBody.shape)).mutation(async ({ ctx, input }) => {
    await ctx.app.runtime.getThread(input.threadId);
    return saveVariables(ctx.app, "thread", input.threadId, { variables: input.variables }).catch(toTrpcError);
  }),
});
