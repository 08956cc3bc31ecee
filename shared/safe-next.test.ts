import { describe, expect, it } from "vitest";
import { safeNextUrl } from "./safe-next";

const origin = "https://studio.example";

describe("the page after sign-in", () => {
  it("keeps a path of this origin, with its query and hash", () => {
    expect(safeNextUrl("/threads?view=inspector#x", origin)).toBe("https://studio.example/threads?view=inspector#x");
    expect(safeNextUrl("/%5Cevil.example/", origin)).toBe("https://studio.example/%5Cevil.example/");
    expect(safeNextUrl(undefined, origin)).toBe("https://studio.example/");
    // Absolute, so the browser cannot read "//evil.example" as protocol-relative.
    expect(safeNextUrl("/.//evil.example", origin)).toBe("https://studio.example//evil.example");
  });

  it("goes home for anything the browser would take to another site", () => {
    for (const next of ["/\\evil.example/", "/\t/evil.example/", "/\n/evil.example/", "//evil.example/", "\\\\evil.example", "https://evil.example/", "javascript:alert(1)", "http://studio.example/", " //evil.example"]) {
      const target = safeNextUrl(next, origin);
      expect([next, new URL(target).origin]).toEqual([next, origin]);
      expect([next, target]).toEqual([next, "https://studio.example/"]);
    }
  });
});
