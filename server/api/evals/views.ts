import type { ExperimentResultRow, ExperimentRow } from "@/server/db/queries/experiments";
import type { EvalRecord } from "@/server/registry";

/** An eval as the API lists it. */
export function evalView(ev: EvalRecord) {
  const d = ev.definition;
  return {
    name: ev.name,
    agent: d.agent,
    description: d.description ?? null,
    file: ev.file,
    cases_file: ev.casesFile ?? null,
    cases: ev.cases.length,
    scorers: ev.scorerNames,
    thresholds: d.thresholds ?? {},
  };
}

/** An experiment without its stored sources (the compare endpoint diffs them). */
export function experimentView(e: ExperimentRow) {
  return {
    id: e.id,
    eval: e.evalName,
    agent: e.agentId,
    status: e.status,
    concurrency: e.concurrency,
    definition: e.definition,
    summary: e.summary,
    error: e.error,
    created_by: e.createdBy,
    created_at: e.createdAt.toISOString(),
    finished_at: e.finishedAt?.toISOString() ?? null,
  };
}

export function resultView(r: ExperimentResultRow) {
  return {
    case_index: r.caseIndex,
    case_id: r.caseId,
    thread_id: r.threadId,
    status: r.status,
    input: r.input,
    reply: r.reply,
    scores: r.scores,
    passed: r.passed,
    cost_usd: r.costUsd,
    judge_cost_usd: r.judgeCostUsd,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    steps: r.steps,
    turns: r.turns,
    latency_ms: r.latencyMs,
    error: r.error,
    started_at: r.startedAt?.toISOString() ?? null,
    finished_at: r.finishedAt?.toISOString() ?? null,
  };
}
