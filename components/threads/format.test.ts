import { describe, expect, it } from "vitest";
import { newId } from "@/server/runtime/ids";
import { shortId } from "./format";

describe("shortId", () => {
  it("shows the random end of a time-ordered id, so threads made in the same minute look different", () => {
    const [a, b] = [newId(), newId()];
    expect(shortId(a)).not.toBe(shortId(b));
    expect(a.endsWith(shortId(a))).toBe(true);
    expect(shortId(a)).toHaveLength(8);
    expect(shortId("abc")).toBe("abc");
  });
});
