import { describe, expect, it } from "vitest";
import { shortId, visibleTags } from "./format";

describe("shortId", () => {
  it("shows the random end of a time-ordered id, so threads made in the same minute look different", () => {
    // Two UUIDv7 ids of the same millisecond: the same first 13 characters (the time).
    const a = "01a2101c-30a5-7701-9850-14507712b99f";
    const b = "01a2101c-30a5-7702-a3c1-0e4f22d8a6c4";
    expect(shortId(a)).toBe("7712b99f");
    expect(shortId(a)).not.toBe(shortId(b));
    expect(a.endsWith(shortId(a))).toBe(true);
    expect(shortId("abc")).toBe("abc");
  });
});

describe("visibleTags", () => {
  it("hides the runtime's internal name: tags and keeps the user's own", () => {
    expect(visibleTags(["name:polish", "urgent", "team:docs"])).toEqual(["urgent", "team:docs"]);
    expect(visibleTags([])).toEqual([]);
  });
});
