import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "./ids";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.restoreAllMocks());

describe("newId", () => {
  it("makes UUIDs of version 7 whose first 48 bits are the time in milliseconds", () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(V7);
    const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after + 1);
  });

  it("increases strictly, within a millisecond too, and borrows the next millisecond after 4096 ids in one", () => {
    vi.spyOn(Date, "now").mockReturnValue(Date.now() + 60_000);
    const ids = Array.from({ length: 10_000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    for (const id of ids) expect(id).toMatch(V7);
    const stamps = new Set(ids.map((id) => id.slice(0, 13)));
    expect(stamps.size).toBeGreaterThan(2);
  });
});
