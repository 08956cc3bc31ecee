import { describe, expect, it } from "vitest";
import { nextRetryDelay } from "./backoff";

describe("reconnect backoff", () => {
  it("doubles from the base up to the ceiling, with at most 20% jitter below", () => {
    const top = () => 1;
    expect([1, 2, 3, 4, 10].map((n) => nextRetryDelay(n, 500, 30_000, top))).toEqual([500, 1000, 2000, 4000, 30_000]);
    expect(nextRetryDelay(2, 500, 30_000, () => 0)).toBe(800);
  });
});
