import type { ExperimentResultRow } from "@/server/db/queries/experiments";
import type { ExperimentSummary, ScorerSummary, ThresholdMiss } from "@/shared/experiment-summary";

export type { ExperimentSummary } from "@/shared/experiment-summary";

const round = (n: number, digits = 6) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Aggregates of an experiment's results, and the thresholds they miss. A case without a score counts as 0. */
export function summarize(results: readonly ExperimentResultRow[], thresholds: Record<string, number>, scorerNames: readonly string[]): ExperimentSummary {
  const n = results.length || 1;
  const scorers: Record<string, ScorerSummary> = {};
  for (const name of scorerNames) {
    const found = results.map((r) => r.scores.find((s) => s.scorer === name));
    scorers[name] = {
      mean: round(found.reduce((sum, s) => sum + (s?.score ?? 0), 0) / n, 4),
      passRate: round(found.filter((s) => s?.passed).length / n, 4),
    };
  }
  const passed = results.filter((r) => r.passed === true).length;
  const passRate = round(passed / n, 4);
  const misses: ThresholdMiss[] = [];
  for (const [name, threshold] of Object.entries(thresholds)) {
    const actual = name === "passRate" ? passRate : (scorers[name]?.mean ?? 0);
    if (actual < threshold) misses.push({ name, threshold, actual });
  }
  return {
    cases: results.length,
    passed,
    errors: results.filter((r) => r.status === "error").length,
    passRate,
    scorers,
    costUsd: round(results.reduce((s, r) => s + r.costUsd, 0)),
    judgeCostUsd: round(results.reduce((s, r) => s + r.judgeCostUsd, 0)),
    inputTokens: results.reduce((s, r) => s + r.inputTokens, 0),
    outputTokens: results.reduce((s, r) => s + r.outputTokens, 0),
    meanLatencyMs: Math.round(results.reduce((s, r) => s + r.latencyMs, 0) / n),
    misses,
  };
}
