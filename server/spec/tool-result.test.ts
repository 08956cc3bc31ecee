import { describe, expect, it } from "vitest";
import { INVALID_TOOL_RESULT, normalizeToolReturn, toolResultSchema } from "./tool-result";

describe("normalizeToolReturn", () => {
  it("turns a string into a success result", () => {
    expect(normalizeToolReturn("done")).toEqual({ status: "success", result: "done" });
  });

  it("turns undefined (a tool that returns nothing) into an empty success result", () => {
    expect(normalizeToolReturn(undefined)).toEqual({ status: "success", result: "" });
  });

  it("stringifies other JSON values", () => {
    expect(normalizeToolReturn(42)).toEqual({ status: "success", result: "42" });
    expect(normalizeToolReturn(null)).toEqual({ status: "success", result: "null" });
    expect(normalizeToolReturn([1, "a"])).toEqual({ status: "success", result: '[1,"a"]' });
    expect(normalizeToolReturn({ count: 3 })).toEqual({ status: "success", result: '{"count":3}' });
  });

  it("keeps a valid success or error result", () => {
    const ok = { status: "success", result: "hi", attachments: ["/attachments/a.png"] };
    expect(normalizeToolReturn(ok)).toEqual(ok);
    const err = {
      status: "error",
      error: "Provide the scoped variables first.",
      error_code: "subagent_env_required",
      error_data: { request_id: "r1", missing: ["SLACK_TOKEN"] },
    };
    expect(normalizeToolReturn(err)).toEqual(err);
  });

  it("stringifies a non-string result of a success object", () => {
    expect(normalizeToolReturn({ status: "success", result: { a: 1 } })).toEqual({
      status: "success",
      result: '{"a":1}',
    });
  });

  it("turns a malformed result into an invalid_tool_result error naming the field", () => {
    const r = normalizeToolReturn({ status: "error" });
    expect(r.status).toBe("error");
    if (r.status !== "error") return;
    expect(r.error_code).toBe(INVALID_TOOL_RESULT);
    expect(r.error).toContain("error: error must be a string");
  });

  it("turns functions, bigints and circular values into invalid_tool_result errors", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const value of [() => 1, 10n, circular]) {
      const r = normalizeToolReturn(value);
      expect(r).toMatchObject({ status: "error", error_code: INVALID_TOOL_RESULT });
    }
  });
});

describe("toolResultSchema", () => {
  it("rejects an unknown status; accepts a success without result (attachments only) and keeps stack", () => {
    expect(toolResultSchema.safeParse({ status: "ok", result: "x" }).success).toBe(false);
    expect(toolResultSchema.safeParse({ status: "success" }).success).toBe(true);
    expect(normalizeToolReturn({ status: "success", attachments: [] })).toEqual({ status: "success", attachments: [] });
    expect(normalizeToolReturn({ status: "error", error: "e", stack: "at x" })).toEqual({ status: "error", error: "e", stack: "at x" });
  });
});
