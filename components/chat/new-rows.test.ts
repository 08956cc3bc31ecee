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
  it("a reply counts once stored: not while it streams, and once when its stored message replaces the stream", () => {
    const streaming = { key: "stream:1", kind: "streaming" };
    expect(appendedRows(rows("a", "u"), [...rows("a", "u"), streaming])).toBe(0);
    expect(appendedRows([...rows("a", "u"), streaming], rows("a", "u", "reply"))).toBe(1);
    expect(appendedRows(rows("a"), [...rows("a"), { key: "p1", kind: "pending" }])).toBe(0);
  });
  it("counts nothing for the first paint or a list replaced wholesale", () => {
    expect(appendedRows(rows(), rows("a", "b"))).toBe(0);
    expect(appendedRows(rows("a"), rows("z"))).toBe(0);
  });
});
