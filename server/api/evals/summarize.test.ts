import { describe, expect, it } from "vitest";
import type { ExperimentResultRow } from "@/server/db/queries/experiments";
import { diffSources } from "./compare";
import { summarize } from "./summarize";

const result = (caseIndex: number, scores: [string, number, boolean][], over: Partial<ExperimentResultRow> = {}): ExperimentResultRow => ({
  id: `r${caseIndex}`,
  experimentId: "e",
  caseIndex,
  caseId: String(caseIndex + 1),
  threadId: null,
  status: "done",
  input: {},
  reply: "",
  scores: scores.map(([scorer, score, passed]) => ({ scorer, type: "custom", score, passed, reason: "" })),
  passed: scores.every(([, , p]) => p),
  costUsd: 0.001,
  judgeCostUsd: 0.0005,
  inputTokens: 10,
  outputTokens: 5,
  steps: 1,
  turns: 1,
  latencyMs: 100 * (caseIndex + 1),
  error: null,
  startedAt: null,
  finishedAt: null,
  ...over,
});

describe("experiment summary", () => {
  it("means and pass rates per scorer, totals, and the thresholds missed", () => {
    const results = [result(0, [["a", 1, true], ["b", 0.5, false]]), result(1, [["a", 0, false], ["b", 1, true]]), result(2, [], { status: "error", passed: false })];
    const s = summarize(results, { a: 0.3, b: 0.6, passRate: 0.1 }, ["a", "b"]);
    expect(s.scorers).toEqual({ a: { mean: 0.3333, passRate: 0.3333 }, b: { mean: 0.5, passRate: 0.3333 } });
    expect(s).toMatchObject({ cases: 3, passed: 0, errors: 1, passRate: 0, costUsd: 0.003, judgeCostUsd: 0.0015, inputTokens: 30, outputTokens: 15, meanLatencyMs: 200 });
    expect(s.misses).toEqual([
      { name: "b", threshold: 0.6, actual: 0.5 },
      { name: "passRate", threshold: 0.1, actual: 0 },
    ]);
  });
});

describe("definition diff", () => {
  it("lists only the files that differ, with a unified patch", () => {
    const diffs = diffSources({ "a.ts": "one\ntwo\n", "same.ts": "x", "gone.ts": "bye" }, { "a.ts": "one\nthree\n", "same.ts": "x", "new.ts": "hi" });
    expect(diffs.map((d) => [d.file, d.status])).toEqual([["a.ts", "changed"], ["gone.ts", "removed"], ["new.ts", "added"]]);
    expect(diffs[0]!.patch).toContain("-two\n+three");
  });
});
