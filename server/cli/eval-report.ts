import type { ExperimentSummary } from "@/server/api/evals/summarize";

/** An experiment as the REST API returns it (the command line prints the same thing in both modes). */
export interface ExperimentJson {
  id: string;
  eval: string;
  agent: string;
  status: string;
  concurrency: number;
  definition?: Record<string, unknown>;
  summary: (ExperimentSummary & Record<string, unknown>) | null;
  error: string | null;
}

export interface ResultJson {
  case_id: string;
  thread_id: string | null;
  status: string;
  passed: boolean | null;
  scores: { scorer: string; score: number; passed: boolean; reason: string }[];
  cost_usd: number;
  judge_cost_usd: number;
  latency_ms: number;
  error: string | null;
}

const pct = (n: number) => `${Math.round(n * 1000) / 10}%`;
const usd = (n: number) => `$${n.toFixed(6)}`;

/** The report `studio eval` prints: one line per case, the failing scorers' reasons, aggregates, thresholds. */
export function formatExperiment(e: ExperimentJson, results: readonly ResultJson[]): string[] {
  const model = typeof e.definition?.model === "string" ? ` on model ${e.definition.model}` : "";
  const lines = [`Experiment ${e.id}: eval ${e.eval} on agent ${e.agent}${model}, ${results.length} case(s), concurrency ${e.concurrency}`];
  for (const r of results) {
    const scores = r.scores.map((s) => `${s.scorer}=${s.score.toFixed(2)}`).join(" ");
    lines.push(`  ${r.passed ? "PASS" : "FAIL"} ${r.case_id}  ${scores}  ${usd(r.cost_usd + r.judge_cost_usd)}  ${r.latency_ms} ms  thread ${r.thread_id ?? "-"}`);
    if (r.error) lines.push(`       error: ${r.error}`);
    for (const s of r.scores.filter((x) => !x.passed)) lines.push(`       ${s.scorer}: ${s.reason}`);
  }
  const s = e.summary;
  if (s) {
    lines.push(`Scorers: ${Object.entries(s.scorers).map(([n, v]) => `${n} mean ${v.mean.toFixed(2)} (pass ${pct(v.passRate)})`).join("; ")}`);
    lines.push(`Pass rate ${pct(s.passRate)} (${s.passed}/${s.cases}); cost ${usd(s.costUsd)} + judge ${usd(s.judgeCostUsd)}; tokens ${s.inputTokens} in, ${s.outputTokens} out; mean latency ${s.meanLatencyMs} ms`);
    for (const m of s.misses) lines.push(`Threshold missed: ${m.name} is ${m.name === "passRate" ? pct(m.actual) : m.actual.toFixed(2)}, below ${m.name === "passRate" ? pct(m.threshold) : m.threshold}`);
  }
  lines.push(e.status === "passed" ? "PASSED" : e.status === "failed" ? "FAILED: a threshold was missed" : `ERROR: ${e.error ?? "the experiment did not finish"}`);
  return lines;
}
