import { describe, expect, it } from "vitest";
import { rowRange } from "./use-fixed-rows";

describe("fixed-height row range", () => {
  it("covers the rows in view plus the overscan, within the list", () => {
    expect(rowRange(0, 520, 52, 205, 6)).toEqual({ start: 0, end: 16 });
    expect(rowRange(52 * 100 + 10, 520, 52, 205, 6)).toEqual({ start: 94, end: 117 });
    expect(rowRange(52 * 200, 520, 52, 205, 6)).toEqual({ start: 194, end: 205 });
    expect(rowRange(0, 520, 52, 3, 6)).toEqual({ start: 0, end: 3 });
  });
});
