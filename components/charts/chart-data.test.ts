import { describe, expect, it } from "vitest";
import { cumulativeSeries, timeTick, totalsBy, type RequestPoint } from "./chart-data";

const req = (threadId: string, label: string, start: number, input: number, output: number, cost: number | null): RequestPoint => ({
  threadId,
  label,
  start,
  inputTokens: input,
  outputTokens: output,
  cost,
});

const requests = [req("child", "mini", 20, 100, 10, 0.002), req("root", "big", 10, 1000, 50, 0.01), req("root", "big", 30, 1200, 80, null)];

describe("cumulativeSeries", () => {
  it("adds up the subtree and the chosen thread in time order; a request without a cost adds none", () => {
    expect(cumulativeSeries(requests, "root")).toEqual([
      { at: 10, subtreeCost: 0.01, threadCost: 0.01, subtreeTokens: 1050, threadTokens: 1050, input: 1000, output: 50 },
      { at: 20, subtreeCost: 0.012, threadCost: 0.01, subtreeTokens: 1160, threadTokens: 1050, input: 100, output: 10 },
      { at: 30, subtreeCost: 0.012, threadCost: 0.01, subtreeTokens: 2440, threadTokens: 2330, input: 1200, output: 80 },
    ]);
  });
});

describe("totalsBy", () => {
  it("totals per model, most expensive first", () => {
    expect(totalsBy(requests, (r) => r.label)).toEqual([
      { key: "big", requests: 2, input: 2200, output: 130, cost: 0.01 },
      { key: "mini", requests: 1, input: 100, output: 10, cost: 0.002 },
    ]);
  });
});

describe("timeTick", () => {
  it("counts seconds from the first request in a short run", () => {
    expect(timeTick(1_500, 0, 60_000)).toBe("+1.5 s");
    expect(timeTick(0, 0, 60_000)).toBe("+0.0 s");
    expect(timeTick(3_600_000, 0, 3_600_000)).not.toContain("+");
  });
});
