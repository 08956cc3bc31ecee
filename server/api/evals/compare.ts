import { createTwoFilesPatch } from "diff";
import type { ExperimentResultRow, ExperimentRow } from "@/server/db/queries/experiments";

export interface FileDiff {
  file: string;
  status: "added" | "removed" | "changed";
  /** Unified diff (a → b). */
  patch: string;
}

export interface CaseComparison {
  caseId: string;
  input: string;
  a: CaseSide | null;
  b: CaseSide | null;
  /** Per scorer: b's score minus a's (null when one side lacks it). */
  deltas: Record<string, number | null>;
}

interface CaseSide {
  threadId: string | null;
  status: string;
  passed: boolean | null;
  reply: string | null;
  scores: Record<string, number>;
  costUsd: number;
  latencyMs: number;
}

/** Unified diffs of the definition sources stored with two experiments: only files that differ. */
export function diffSources(a: Record<string, string>, b: Record<string, string>): FileDiff[] {
  const files = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const out: FileDiff[] = [];
  for (const file of files) {
    const before = a[file];
    const after = b[file];
    if (before === after) continue;
    out.push({
      file,
      status: before === undefined ? "added" : after === undefined ? "removed" : "changed",
      patch: createTwoFilesPatch(`a/${file}`, `b/${file}`, before ?? "", after ?? "", undefined, undefined, { context: 3 }),
    });
  }
  return out;
}

function side(r: ExperimentResultRow | undefined): CaseSide | null {
  if (!r) return null;
  return {
    threadId: r.threadId,
    status: r.status,
    passed: r.passed,
    reply: r.reply,
    scores: Object.fromEntries(r.scores.map((s) => [s.scorer, s.score])),
    costUsd: r.costUsd,
    latencyMs: r.latencyMs,
  };
}

/** Two experiments side by side: per case (matched by case id) with score deltas, and the diff of their definitions. */
export function compareExperiments(a: { experiment: ExperimentRow; results: ExperimentResultRow[] }, b: { experiment: ExperimentRow; results: ExperimentResultRow[] }) {
  const ids = [...new Set([...a.results.map((r) => r.caseId), ...b.results.map((r) => r.caseId)])];
  const cases: CaseComparison[] = ids.map((caseId) => {
    const ra = a.results.find((r) => r.caseId === caseId);
    const rb = b.results.find((r) => r.caseId === caseId);
    const sa = side(ra);
    const sb = side(rb);
    const names = [...new Set([...Object.keys(sa?.scores ?? {}), ...Object.keys(sb?.scores ?? {})])];
    const deltas = Object.fromEntries(
      names.map((n) => [n, sa?.scores[n] !== undefined && sb?.scores[n] !== undefined ? Math.round((sb.scores[n]! - sa.scores[n]!) * 10_000) / 10_000 : null]),
    );
    return { caseId, input: String((ra ?? rb)!.input.input ?? ""), a: sa, b: sb, deltas };
  });
  return { cases, definitionDiff: diffSources(a.experiment.sources, b.experiment.sources) };
}
