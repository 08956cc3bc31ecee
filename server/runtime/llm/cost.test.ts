import { describe, expect, it } from "vitest";
import { computeCost } from "./cost";

describe("computeCost", () => {
  it("charges fresh input, cached input and output at their prices per million tokens", () => {
    const cost = computeCost(
      { inputTokens: 1_000_000, outputTokens: 500_000, cachedTokens: 400_000 },
      { inputPrice: 2, outputPrice: 8, cachedPrice: 0.5 },
    );
    // 600k fresh * $2 + 400k cached * $0.5 + 500k out * $8
    expect(cost).toBeCloseTo(1.2 + 0.2 + 4, 10);
  });

  it("bills cached tokens at the input price when there is no cached price", () => {
    expect(computeCost({ inputTokens: 1000, outputTokens: 0, cachedTokens: 400 }, { inputPrice: 3 })).toBeCloseTo(
      0.003,
      12,
    );
  });

  it("counts missing prices as zero", () => {
    expect(computeCost({ inputTokens: 1000, outputTokens: 1000, cachedTokens: 0 }, {})).toBe(0);
    expect(computeCost({ inputTokens: 1000, outputTokens: 1000, cachedTokens: 0 }, { outputPrice: 10 })).toBeCloseTo(
      0.01,
      12,
    );
  });

  it("never bills more cached tokens than input tokens", () => {
    const cost = computeCost(
      { inputTokens: 100, outputTokens: 0, cachedTokens: 500 },
      { inputPrice: 10, cachedPrice: 1 },
    );
    expect(cost).toBeCloseTo((100 * 1) / 1e6, 12);
  });
});
