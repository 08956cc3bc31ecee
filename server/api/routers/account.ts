import { z } from "zod";
import { createApiKey, createKeyBody, listApiKeys, revokeApiKey } from "../accounts/api-keys";
import { assertAccount, assertSession, assertThreadAccess } from "../auth/access";
import { anyUser } from "../auth/guard";
import { listVariables, saveVariables, saveVariablesBody } from "../variables/env-values";
import { listProviders } from "../variables/providers";
import { agentVariables } from "../variables/resolution";
import { publicProcedure, router, toTrpcError } from "../trpc";

/** The signed-in user's own things: who am I, API keys, my variables; and the read-only variable and provider views. */
export const accountRouter = router({
  me: publicProcedure.query(async ({ ctx }) => ({
    user: ctx.caller.userId ? { id: ctx.caller.userId, username: ctx.caller.username!, role: ctx.caller.role } : null,
    mode: ctx.caller.via,
    setupNeeded: !(await anyUser(ctx.app)),
  })),
  /** The caller's keys; null in local mode (keys belong to accounts). */
  keys: publicProcedure.query(async ({ ctx }) => {
    try {
      assertSession(ctx.caller);
      return ctx.caller.userId ? await listApiKeys(ctx.app.queries, ctx.caller.userId) : null;
    } catch (err) {
      toTrpcError(err);
    }
  }),
  /** A new key: needs a signed-in session, never a key. */
  createKey: publicProcedure.input(createKeyBody).mutation(async ({ ctx, input }) => {
    try {
      assertAccount(ctx.caller);
      assertSession(ctx.caller);
      return await createApiKey(ctx.app.queries, ctx.caller, input);
    } catch (err) {
      toTrpcError(err);
    }
  }),
  revokeKey: publicProcedure.input(z.object({ id: z.string().min(1) })).mutation(async ({ ctx, input }) => {
    try {
      assertAccount(ctx.caller);
      assertSession(ctx.caller);
      await revokeApiKey(ctx.app.queries, ctx.caller.userId, input.id);
      return { ok: true };
    } catch (err) {
      toTrpcError(err);
    }
  }),
  variables: publicProcedure.query(async ({ ctx }) => {
    if (!ctx.caller.userId) return null;
    return listVariables(ctx.app, "user", ctx.caller.userId);
  }),
  saveVariables: publicProcedure.input(saveVariablesBody).mutation(async ({ ctx, input }) => {
    try {
      assertAccount(ctx.caller);
      return await saveVariables(ctx.app, "user", ctx.caller.userId, input);
    } catch (err) {
      toTrpcError(err);
    }
  }),
  /** For a chosen agent: declared variables, where each value comes from, which are missing (no values). */
  agentVariables: publicProcedure.input(z.object({ agent: z.string().min(1), thread: z.string().optional() })).query(async ({ ctx, input }) => {
    try {
      let userId = ctx.caller.userId;
      if (input.thread) {
        await assertThreadAccess(ctx.app, ctx.caller, input.thread);
        userId = (await ctx.app.runtime.getThread(input.thread)).userId;
      }
      return await agentVariables(ctx.app, input.agent, { userId, threadId: input.thread });
    } catch (err) {
      toTrpcError(err);
    }
  }),
  providers: publicProcedure.query(({ ctx }) => listProviders(ctx.app)),
});
