import { describe, expect, it } from "vitest";
import { nestedDeeperThan } from "./json-limits";

describe("JSON nesting depth", () => {
  it("counts arrays and objects, not brackets inside strings or escaped quotes", () => {
    expect(nestedDeeperThan(`{"a":[{"b":[]}]}`, 4)).toBe(false);
    expect(nestedDeeperThan(`{"a":[{"b":[[]]}]}`, 4)).toBe(true);
    expect(nestedDeeperThan(JSON.stringify({ s: "[[[[[[\\\"[[[[" }), 1)).toBe(false);
    expect(nestedDeeperThan("[".repeat(101) + "]".repeat(101), 100)).toBe(true);
    expect(nestedDeeperThan("[".repeat(100) + "]".repeat(100), 100)).toBe(false);
  });
});
