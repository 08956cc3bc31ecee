import { describe, expect, it } from "vitest";
import { isInlineSafe, mimeEssence } from "./mime-type";

describe("thread file types", () => {
  it("takes the essence of one well-formed type", () => {
    expect(mimeEssence("Text/Plain; charset=utf-8")).toBe("text/plain");
    expect(mimeEssence("image/png")).toBe("image/png");
    expect(mimeEssence('text/plain; charset="utf-8"')).toBe("text/plain");
  });

  it("refuses lists and malformed types, which a browser could read as another type", () => {
    for (const v of ["text/plain,text/html", "text/plain, text/html", "text/plain; charset=utf-8, text/html", "text/plain;,text/html", "text", "", "text/plain/html", "text/pla in"]) {
      expect([v, mimeEssence(v)]).toEqual([v, null]);
    }
  });

  it("allows inline only an exact essence of the allowlist", () => {
    expect(isInlineSafe("text/plain; charset=utf-8")).toBe(true);
    expect(isInlineSafe("image/jpeg")).toBe(true);
    expect(isInlineSafe("text/plain,text/html")).toBe(false);
    expect(isInlineSafe("text/plainx")).toBe(false);
    expect(isInlineSafe("text/html")).toBe(false);
    expect(isInlineSafe("image/svg+xml")).toBe(false);
  });
});
