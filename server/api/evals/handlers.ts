import { z } from "zod";
import { NotFoundError } from "@/server/runtime/errors";
import type { App } from "../app-context";
import { assertAdmin, assertThreadAccess, ownerOf } from "../auth/access";
import { readJson, type RouteContext } from "../rest/router";
import { parseQuery } from "../threads/schemas";
import { compareExperiments } from "./compare";
import { settleInterrupted, startExperiment } from "./run-experiment";
import { saveThreadAsCase } from "./save-case";
import { evalView, experimentView, resultView } from "./views";

type Ctx = RouteContext<App>;

const startBody = z.object({ concurrency: z.number().int().min(1).max(64).optional(), model: z.string().min(1).optional() }).strict();
const listQuery = z.object({
  eval: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
const saveCaseBody = z.object({ thread_id: z.string().min(1), id: z.string().min(1).max(120).optional(), expected: z.string().optional() }).strict();
const compareQuery = z.object({ a: z.string().min(1, "a: the id of the first experiment"), b: z.string().min(1, "b: the id of the second experiment") });

async function loadExperiment(app: App, id: string) {
  await settleInterrupted(app);
  const experiment = await app.queries.experiments.get(id);
  if (!experiment) throw new NotFoundError(`Experiment ${id} not found`);
  return { experiment, results: await app.queries.experiments.results(id) };
}

/** `GET /api/evals`: the valid evals of the registry. */
export function listEvalsHandler({ app }: Ctx): Response {
  return Response.json({ evals: [...app.registry.current().evals.values()].map(evalView) });
}

/** `POST /api/evals/:name/experiments {concurrency?}` → 202 `{experiment}`; the cases run in the background. */
export async function startExperimentHandler({ app, params, request, caller }: Ctx): Promise<Response> {
  const body = startBody.parse(await readJson(request));
  const { experiment } = await startExperiment(app, { evalName: params.name!, concurrency: body.concurrency, ...(body.model ? { model: body.model } : {}), createdBy: ownerOf(caller) });
  return Response.json({ experiment: experimentView(experiment) }, { status: 202 });
}

/** `GET /api/experiments?eval=&limit=&offset=`: newest first. */
export async function listExperimentsHandler({ app, url }: Ctx): Promise<Response> {
  const q = parseQuery(listQuery, url.searchParams);
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  await settleInterrupted(app);
  const { experiments, total } = await app.queries.experiments.list({ evalName: q.eval, limit, offset });
  return Response.json({ experiments: experiments.map(experimentView), total, limit, offset });
}

/** `GET /api/experiments/:id`: the experiment and its per-case results. */
export async function getExperimentHandler({ app, params }: Ctx): Promise<Response> {
  const { experiment, results } = await loadExperiment(app, params.id!);
  return Response.json({ experiment: experimentView(experiment), results: results.map(resultView) });
}

/** `GET /api/experiments/compare?a=&b=`: per case and aggregate, with the diff of the definitions. */
export async function compareExperimentsHandler({ app, url }: Ctx): Promise<Response> {
  const q = parseQuery(compareQuery, url.searchParams);
  const a = await loadExperiment(app, q.a);
  const b = await loadExperiment(app, q.b);
  const { cases, definitionDiff } = compareExperiments(a, b);
  return Response.json({ a: experimentView(a.experiment), b: experimentView(b.experiment), cases, definition_diff: definitionDiff });
}

/** `POST /api/evals/:name/cases {thread_id, id?, expected?}` → 201 `{case, file}`: the thread becomes a case (admins). */
export async function saveCaseHandler({ app, params, request, caller }: Ctx): Promise<Response> {
  assertAdmin(caller, "Adding cases to an eval file");
  const body = saveCaseBody.parse(await readJson(request));
  if (caller) await assertThreadAccess(app, caller, body.thread_id);
  const saved = await saveThreadAsCase(app, { evalName: params.name!, threadId: body.thread_id, ...(body.id ? { id: body.id } : {}), ...(body.expected !== undefined ? { expected: body.expected } : {}) });
  return Response.json(saved, { status: 201 });
}
