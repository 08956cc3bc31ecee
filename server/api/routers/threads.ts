import { z } from "zod";
import { toSpecMessage } from "@/server/runtime/kernel/to-spec";
import { ownerFilter, ownerOf } from "../auth/access";
import { createThreadBody, postMessageBody } from "../threads/schemas";
import { threadView } from "../threads/views";
import { publicProcedure, router } from "../trpc";

const threadId = z.object({ threadId: z.string().min(1) });

/** The same thread operations as the REST API, for the UI. */
export const threadsRouter = router({
  list: publicProcedure
    .input(
      z.object({
        agentId: z.string().optional(),
        parentId: z.string().nullable().optional(),
        status: z.enum(["running", "idle", "terminated"]).optional(),
        search: z.string().optional(),
        limit: z.number().int().min(1).max(500).default(50),
        offset: z.number().int().min(0).default(0),
      }),
    )
    .query(async ({ ctx, input }) => {
      const { threads, total } = await ctx.app.persistence.threads.list({ ...input, userId: ownerFilter(ctx.caller) });
      return { threads: threads.map((t) => threadView(t)), total };
    }),
  get: publicProcedure.input(threadId).query(async ({ ctx, input }) => {
    const t = await ctx.app.runtime.getThread(input.threadId);
    return threadView(t, await ctx.app.persistence.env.list("thread", t.id));
  }),
  messages: publicProcedure
    .input(threadId.extend({ includeSilent: z.boolean().default(false), limit: z.number().int().min(1).max(10_000).optional(), afterSeq: z.number().int().optional() }))
    .query(async ({ ctx, input }) => {
      await ctx.app.runtime.getThread(input.threadId);
      const rows = await ctx.app.persistence.messages.list(input.threadId, { includeSilent: input.includeSilent, limit: input.limit, afterSeq: input.afterSeq });
      return rows.map((m) => ({ ...toSpecMessage(m), seq: m.seq, side: m.side }));
    }),
  create: publicProcedure.input(createThreadBody).mutation(async ({ ctx, input }) => {
    const t = await ctx.app.runtime.createThread({
      userId: ownerOf(ctx.caller),
      agentId: input.agent_id,
      env: input.env,
      envTypes: input.env_types,
      tags: input.tags,
      initialMessages: input.initial_messages,
    });
    return threadView(t);
  }),
  post: publicProcedure.input(threadId.extend(postMessageBody.shape)).mutation(({ ctx, input }) =>
    ctx.app.runtime.postMessage(input.threadId, {
      content: input.content,
      role: input.role,
      attachments: input.attachments as never,
      silent: input.silent,
      metadata: input.metadata,
    }),
  ),
  deleteMessage: publicProcedure
    .input(threadId.extend({ messageId: z.string().min(1) }))
    .mutation(({ ctx, input }) => ctx.app.runtime.deleteMessage(input.threadId, input.messageId)),
  stop: publicProcedure.input(threadId).mutation(async ({ ctx, input }) => threadView(await ctx.app.runtime.stop(input.threadId))),
  continue: publicProcedure.input(threadId).mutation(async ({ ctx, input }) => threadView(await ctx.app.runtime.continue(input.threadId))),
  terminate: publicProcedure.input(threadId).mutation(async ({ ctx, input }) => threadView(await ctx.app.runtime.terminate(input.threadId))),
});
