/** Cost of one request from the model's prices (USD per million tokens). */
import type { LlmUsage } from "./types";

export interface ModelPrices {
  inputPrice?: number;
  outputPrice?: number;
  /** Price of cached input tokens; the input price when absent. */
  cachedPrice?: number;
}

/**
 * `(input - cached) * inputPrice + cached * (cachedPrice ?? inputPrice) + output * outputPrice`, all / 1e6.
 * A missing price counts as 0.
 */
export function computeCost(usage: LlmUsage, prices: ModelPrices): number {
  const input = prices.inputPrice ?? 0;
  const cachedTokens = Math.min(Math.max(usage.cachedTokens, 0), Math.max(usage.inputTokens, 0));
  const freshTokens = Math.max(usage.inputTokens - cachedTokens, 0);
  const total =
    freshTokens * input +
    cachedTokens * (prices.cachedPrice ?? input) +
    Math.max(usage.outputTokens, 0) * (prices.outputPrice ?? 0);
  return total / 1e6;
}
