import { z } from "zod";
import { NotFoundError } from "@/server/runtime/errors";
import { assertThreadAccess, ownerOf } from "../auth/access";
import { compareExperiments } from "../evals/compare";
import { settleInterrupted, startExperiment } from "../evals/run-experiment";
import { saveThreadAsCase } from "../evals/save-case";
import { evalView, experimentView, resultView } from "../evals/views";
import type { App } from "../app-context";
import { adminProcedure, publicProcedure, router } from "../trpc";

async function load(app: App, id: string) {
  await settleInterrupted(app);
  const experiment = await app.queries.experiments.get(id);
  if (!experiment) throw new NotFoundError(`Experiment ${id} not found`);
  return { experiment, results: await app.queries.experiments.results(id) };
}

/** Evals and experiments for the UI: the same operations as the REST API (`/api/evals`, `/api/experiments`). */
export const evalsRouter = router({
  /** The valid evals, and the diagnostics of the eval files that are not. */
  list: publicProcedure.query(({ ctx }) => {
    const snap = ctx.app.registry.current();
    return { evals: [...snap.evals.values()].map(evalView), models: [...snap.models.keys()].sort(), diagnostics: snap.diagnostics.filter((d) => d.kind === "evals") };
  }),
  experiments: publicProcedure
    .input(z.object({ eval: z.string().min(1).optional(), limit: z.number().int().min(1).max(200).optional() }))
    .query(async ({ ctx, input }) => {
      await settleInterrupted(ctx.app);
      const { experiments, total } = await ctx.app.queries.experiments.list({ evalName: input.eval, limit: input.limit ?? 50, offset: 0 });
      return { experiments: experiments.map(experimentView), total };
    }),
  experiment: publicProcedure.input(z.object({ id: z.string().min(1) })).query(async ({ ctx, input }) => {
    const { experiment, results } = await load(ctx.app, input.id);
    return { experiment: experimentView(experiment), results: results.map(resultView) };
  }),
  start: publicProcedure
    .input(z.object({ name: z.string().min(1), concurrency: z.number().int().min(1).max(64).optional(), model: z.string().min(1).optional() }))
    .mutation(async ({ ctx, input }) => {
      const { experiment } = await startExperiment(ctx.app, { evalName: input.name, concurrency: input.concurrency, ...(input.model ? { model: input.model } : {}), createdBy: ownerOf(ctx.caller) });
      return experimentView(experiment);
    }),
  /** "Save this thread as a case" of an eval whose cases are a JSONL file (admins). */
  saveCase: adminProcedure
    .input(z.object({ name: z.string().min(1), threadId: z.string().min(1), id: z.string().min(1).max(120).optional(), expected: z.string().optional() }))
    .mutation(async ({ ctx, input }) => {
      if (ctx.caller) await assertThreadAccess(ctx.app, ctx.caller, input.threadId);
      return saveThreadAsCase(ctx.app, { evalName: input.name, threadId: input.threadId, ...(input.id ? { id: input.id } : {}), ...(input.expected !== undefined ? { expected: input.expected } : {}) });
    }),
  compare: publicProcedure.input(z.object({ a: z.string().min(1), b: z.string().min(1) })).query(async ({ ctx, input }) => {
    const a = await load(ctx.app, input.a);
    const b = await load(ctx.app, input.b);
    return { a: experimentView(a.experiment), b: experimentView(b.experiment), ...compareExperiments(a, b) };
  }),
});
