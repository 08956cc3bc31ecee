import { describe, expect, it } from "vitest";
import { filtersFromQuery, filtersToQuery, NO_FILTERS } from "./filter-query";

const parse = (qs: string) => {
  const p = new URLSearchParams(qs);
  return filtersFromQuery((k) => p.get(k) ?? "");
};

describe("thread list filters in the address", () => {
  it("round-trip through the query string", () => {
    const f = {
      q: "x",
      agent: "a",
      status: "running" as const,
      sort: "created" as const,
      owner: "me",
      from: "2026-11-01",
      to: "2026-11-27",
    };
    expect(parse(filtersToQuery(f))).toEqual(f);
  });
  it("no filter is an empty query string", () => {
    expect(filtersToQuery(NO_FILTERS)).toBe("");
  });
  it("drops unknown statuses, sorts and malformed dates", () => {
    expect(parse("status=weird&sort=random&from=27/11/2026&to=2026-11-27")).toEqual({
      ...NO_FILTERS,
      to: "2026-11-27",
    });
  });
});
