/** An experiment's aggregates: the server computes them (server/api/evals/summarize.ts), the Evals page shows them. */

export interface ScorerSummary {
  /** Mean score over the cases (0..1). */
  mean: number;
  /** Share of cases this scorer passed. */
  passRate: number;
}

export interface ThresholdMiss {
  /** A scorer name, or `passRate`. */
  name: string;
  threshold: number;
  actual: number;
}

export interface ExperimentSummary {
  cases: number;
  passed: number;
  errors: number;
  /** Share of cases that passed every scorer. */
  passRate: number;
  scorers: Record<string, ScorerSummary>;
  costUsd: number;
  judgeCostUsd: number;
  inputTokens: number;
  outputTokens: number;
  /** Mean latency of a case (ms). */
  meanLatencyMs: number;
  misses: ThresholdMiss[];
}
