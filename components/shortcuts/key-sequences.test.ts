import { describe, expect, it } from "vitest";
import { createSequenceMatcher, SHORTCUTS } from "./key-sequences";

const name = (s: { description: string } | null) => s?.description ?? null;

describe("createSequenceMatcher", () => {
  it("completes two-key shortcuts and single keys", () => {
    const m = createSequenceMatcher(SHORTCUTS);
    expect(name(m.press("g", 0))).toBeNull();
    expect(m.pending).toEqual(["g"]);
    expect(name(m.press("t", 100))).toBe("Go to the threads");
    expect(name(m.press("n", 200))).toBe("Start a new thread");
    expect(name(m.press("?", 300))).toBe("Show these shortcuts");
  });

  it("forgets a prefix after the timeout, and on an unknown key", () => {
    const m = createSequenceMatcher(SHORTCUTS, 1000);
    m.press("g", 0);
    expect(name(m.press("t", 1500))).toBeNull();
    m.press("g", 2000);
    expect(name(m.press("x", 2100))).toBeNull();
    expect(m.pending).toEqual([]);
    expect(name(m.press("e", 2200))).toBeNull();
  });

  it("a single-key shortcut after a broken prefix still counts; g g waits for the next key", () => {
    const m = createSequenceMatcher(SHORTCUTS);
    m.press("g", 0);
    expect(name(m.press("n", 10))).toBe("Start a new thread");
    m.press("g", 20);
    expect(name(m.press("g", 30))).toBeNull();
    expect(name(m.press("h", 40))).toBe("Go to Home");
  });
});
