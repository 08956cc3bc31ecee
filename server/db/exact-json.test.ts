import { describe, expect, it } from "vitest";
import { exactJson } from "./exact-json";

const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe("exactJson", () => {
  it("accepts plain data, which survives JSON unchanged", () => {
    const values: unknown[] = [
      "text \ud800 lone surrogate",
      0,
      -1.5,
      true,
      null,
      [],
      {},
      [1, "a", null, [false]],
      { type: "thread.status", status: "running", stopReason: null, nested: { a: [1, { b: "c" }], 2: "int key" } },
      Object.assign(Object.create(null) as object, { a: 1 }),
    ];
    for (const v of values) {
      expect(exactJson(v), JSON.stringify(v)).toBe(true);
      expect(roundTrip(v)).toEqual(v);
    }
  });

  it("refuses what JSON would store as something else", () => {
    class Point {
      x = 1;
    }
    const refused: unknown[] = [
      undefined,
      { a: undefined },
      [undefined],
      [1, , 2], // eslint-disable-line no-sparse-arrays
      Number.NaN,
      Infinity,
      -0,
      { at: new Date(0) },
      { big: 1n },
      { fn: () => 1 },
      { toJSON: () => "x" },
      new Point(),
      new Map([["a", 1]]),
      { deep: Symbol("s") },
    ];
    for (const v of refused) expect(exactJson(v), String(v)).toBe(false);
    // Each of them indeed comes back different (or does not serialize at all).
    for (const v of refused) {
      let back: unknown;
      try {
        back = roundTrip(v);
      } catch {
        continue;
      }
      expect(back).not.toStrictEqual(v);
    }
  });
});
