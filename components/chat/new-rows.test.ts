import { describe, expect, it } from "vitest";
import { appendedRows } from "./new-rows";

const rows = (...keys: string[]) => keys.map((key) => ({ key }));

describe("appendedRows (the jump button's 'N new')", () => {
  it("counts rows added below the last known row", () => {
    expect(appendedRows(rows("a", "b"), rows("a", "b", "c", "d"))).toBe(2);
  });
  it("does not count older messages paged in above", () => {
    expect(
      appendedRows(rows("m300", "m301"), rows(...Array.from({ length: 1703 }, (_, i) => `old${i}`), "m300", "m301")),
    ).toBe(0);
  });
  it("counts only the new rows when older ones arrive above and new ones below together", () => {
    expect(appendedRows(rows("b", "c"), rows("x", "y", "b", "c", "d"))).toBe(1);
  });
  it("a streamed reply replaced by its stored message is one new row, not two", () => {
    expect(appendedRows(rows("a", "stream"), rows("a", "m2"))).toBe(1);
  });
  it("counts nothing for the first paint or a list replaced wholesale", () => {
    expect(appendedRows(rows(), rows("a", "b"))).toBe(0);
    expect(appendedRows(rows("a"), rows("z"))).toBe(0);
  });
});
