import fs from "node:fs/promises";
import path from "node:path";
import type { ExperimentRow } from "@/server/db/queries/experiments";
import { createLlmJudge } from "@/server/evals/llm-judge";
import { scoreRun, type CaseScore, type JudgeFn } from "@/server/evals/score-run";
import type { EvalCaseRecord, EvalRecord } from "@/server/registry";
import { NotFoundError, ValidationError } from "@/server/runtime/errors";
import { guessMimeType } from "@/server/runtime/files/paths";
import type { AttachmentInput } from "@/server/spec";
import { MODEL_OVERRIDE_VARIABLE } from "@/server/runtime/side-loop/llm-step";
import type { App } from "../app-context";
import { collectRun, waitForRest } from "./collect-run";
import { evalSnapshot, evalSources } from "./eval-snapshot";
import { summarize } from "./summarize";

export interface StartExperimentInput {
  evalName: string;
  /** Cases run at once (default: the eval's `concurrency`, else 4). */
  concurrency?: number;
  /** Run every prompt of the case threads on this model definition instead of their own (`--model`). */
  model?: string;
  /** The user who starts it (their threads); null in local mode and from the command line. */
  createdBy?: string | null;
}

export interface StartedExperiment {
  experiment: ExperimentRow;
  /** Settles when every case ran and the experiment is finished (never rejects). */
  done: Promise<ExperimentRow>;
}

/** How often a running experiment renews its heartbeat; one silent for `STALE_AFTER_MS` was interrupted. */
const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 30_000;

/** Ends the experiments whose process stopped while they ran (read paths call it before they read). */
export function settleInterrupted(app: App): Promise<string[]> {
  return app.queries.experiments.failStale(new Date(Date.now() - STALE_AFTER_MS));
}

/** The experiment id tag each case's thread carries. */
export const experimentTag = (id: string) => `experiment:${id}`;

function judgeFor(app: App): JudgeFn {
  const settings = app.runtime.deps.settings;
  return createLlmJudge({
    llm: app.runtime.deps.llm,
    models: () => new Map([...app.registry.current().models].map(([name, r]) => [name, r.definition])),
    env: (name) => settings.processEnv?.(name),
    defaults: { baseURL: settings.defaultBaseURL, apiKey: settings.defaultApiKey },
  });
}

async function runCase(app: App, ev: EvalRecord, experimentId: string, index: number, c: EvalCaseRecord, opts: { userId: string | null; model?: string }, judge: JudgeFn): Promise<void> {
  const store = app.queries.experiments;
  const def = ev.definition;
  const startedAt = new Date();
  await store.updateResult(experimentId, index, { status: "running", startedAt });
  let threadId: string | null = null;
  try {
    const thread = await app.runtime.createThread({
      agentId: def.agent,
      userId: opts.userId,
      env: { ...def.env, ...c.variables, ...(opts.model ? { [MODEL_OVERRIDE_VARIABLE]: opts.model } : {}) },
      tags: [experimentTag(experimentId), `eval:${ev.name}`],
      initialMessages: c.attachments?.length ? (c.messages ?? []).slice(0, -1) : (c.messages ?? [{ role: "user", content: c.input }]),
    });
    // With attachments, the last user message is posted with its files (initial messages carry none).
    if (c.attachments?.length) await app.runtime.postMessage(thread.id, { content: c.input, attachments: await caseAttachments(ev, c) });
    threadId = thread.id;
    await store.updateResult(experimentId, index, { threadId });
    const timeoutMs = def.timeoutMs ?? 120_000;
    const rested = await waitForRest(app, thread.id, timeoutMs);
    const latencyMs = Date.now() - startedAt.getTime();
    if (!rested) await app.runtime.stop(thread.id).catch(() => undefined);
    const run = await collectRun(app, c, thread.id, latencyMs);
    const scores: CaseScore[] = [];
    for (const s of def.scorers) scores.push(await scoreRun(s, run, judge));
    await store.updateResult(experimentId, index, {
      status: rested ? "done" : "error",
      ...(rested ? {} : { error: `the case did not finish within ${timeoutMs} ms and was stopped` }),
      reply: run.reply,
      scores,
      passed: rested && scores.every((s) => s.passed),
      costUsd: run.costUsd,
      judgeCostUsd: scores.reduce((sum, s) => sum + (s.costUsd ?? 0), 0),
      inputTokens: run.inputTokens,
      outputTokens: run.outputTokens,
      steps: run.steps,
      turns: run.turns,
      latencyMs,
      finishedAt: new Date(),
    });
  } catch (error) {
    await store.updateResult(experimentId, index, { status: "error", error: (error as Error).message, passed: false, threadId, finishedAt: new Date() });
  }
}

/** A case's attachments as message attachments: files next to the eval are read and sent as base64. */
async function caseAttachments(ev: EvalRecord, c: EvalCaseRecord): Promise<AttachmentInput[]> {
  const out: AttachmentInput[] = [];
  for (const a of c.attachments ?? []) {
    if ("data" in a) {
      out.push(a);
      continue;
    }
    const abs = path.resolve(path.dirname(ev.absPath), a.file);
    out.push({ name: path.basename(abs), mimeType: a.mimeType ?? guessMimeType(abs), data: (await fs.readFile(abs)).toString("base64") });
  }
  return out;
}

async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * Starts an experiment: one row, one pending result per case, then every case as a real thread of the eval's agent
 * (tagged `experiment:<id>`), `concurrency` at a time; each finished case is scored and stored, and the experiment is
 * summarised against the eval's thresholds (`passed` or `failed`).
 */
export async function startExperiment(app: App, input: StartExperimentInput): Promise<StartedExperiment> {
  const snapshot = app.registry.current();
  const ev = snapshot.evals.get(input.evalName);
  if (!ev) {
    const broken = snapshot.diagnostics.find((d) => d.kind === "evals" && d.name === input.evalName && d.severity === "error");
    if (broken) throw new ValidationError(`eval "${input.evalName}" has errors: ${broken.file} ${broken.field}: ${broken.message}`, [{ path: "eval", message: broken.message }]);
    throw new NotFoundError(`No eval named "${input.evalName}"${snapshot.evals.size ? `; evals: ${[...snapshot.evals.keys()].join(", ")}` : " (add one under agents/evals/)"}`);
  }
  const concurrency = input.concurrency ?? ev.definition.concurrency ?? 4;
  if (input.model !== undefined && !snapshot.models.has(input.model))
    throw new ValidationError(`model: no model definition is named "${input.model}"; models: ${[...snapshot.models.keys()].join(", ")}`, [{ path: "model", message: `unknown model "${input.model}"` }]);
  const experiment = await app.queries.experiments.create({
    evalName: ev.name,
    agentId: ev.definition.agent,
    concurrency,
    definition: { ...evalSnapshot(ev), ...(input.model ? { model: input.model } : {}) },
    sources: await evalSources(snapshot, ev),
    createdBy: input.createdBy ?? null,
    cases: ev.cases.map((c) => ({ caseId: c.id, input: { ...c } })),
  });
  const judge = judgeFor(app);
  const beat = setInterval(() => void app.queries.experiments.heartbeat(experiment.id).catch(() => undefined), HEARTBEAT_MS);
  beat.unref?.();
  const done = (async () => {
    try {
      await pool(ev.cases.length, concurrency, (i) => runCase(app, ev, experiment.id, i, ev.cases[i]!, { userId: input.createdBy ?? null, ...(input.model ? { model: input.model } : {}) }, judge));
      const results = await app.queries.experiments.results(experiment.id);
      const summary = summarize(results, ev.definition.thresholds ?? {}, ev.scorerNames);
      await app.queries.experiments.finish(experiment.id, { status: summary.misses.length === 0 ? "passed" : "failed", summary: { ...summary } });
    } catch (error) {
      await app.queries.experiments.finish(experiment.id, { status: "error", summary: null, error: (error as Error).message }).catch(() => undefined);
    } finally {
      clearInterval(beat);
    }
    return (await app.queries.experiments.get(experiment.id))!;
  })();
  return { experiment, done };
}
