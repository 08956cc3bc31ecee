import { z } from "zod";
import { describe, expect, it } from "vitest";
import { formatZodIssues, issuesToText } from "./format-issues";

const schema = z.object({
  title: z.string(),
  count: z.number().int().min(1),
  tags: z.array(z.string().min(1)).max(2),
  mode: z.enum(["a", "b"]),
  binding: z.union([z.string(), z.object({ name: z.string() })]).optional(),
  nested: z.object({ inner: z.object({ name: z.string() }) }).optional(),
});

function format(value: unknown, withInput = true) {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected the value to be rejected");
  return withInput ? formatZodIssues(r.error.issues, value) : formatZodIssues(r.error.issues);
}

describe("formatZodIssues", () => {
  it("reports missing fields as 'required: add ...' with dotted paths", () => {
    const found = format({ count: 1, tags: [], mode: "a", nested: { inner: {} } });
    expect(found).toEqual([
      { path: "title", message: "required: add `title: <value>`", code: "invalid_type" },
      { path: "nested.inner.name", message: "required: add `name: '<name>'`", code: "invalid_type" },
    ]);
  });

  it("detects missing fields without the input too", () => {
    expect(format({ count: 1, tags: [], mode: "a" }, false)[0]?.message).toBe("required: add `title: <value>`");
  });

  it("rewrites type, range, enum and array errors", () => {
    const found = format({ title: 3, count: 0, tags: ["", "x"], mode: "c" });
    expect(found.map((i) => [i.path, i.message])).toEqual([
      ["title", "must be a string (got number)"],
      ["count", "must be at least 1"],
      ["tags.0", "must not be empty"],
      ["mode", `must be one of 'a', 'b' (got "c")`],
    ]);
    expect(format({ title: "t", count: 1, tags: ["x", "y", "z"], mode: "a" })).toEqual([
      { path: "tags", message: "must have at most 2 items", code: "too_big" },
    ]);
  });

  it("reports the union branch that matches the value's type", () => {
    const found = format({ title: "t", count: 1, tags: [], mode: "a", binding: { nam: "x" } });
    expect(found).toEqual([{ path: "binding.name", message: "required: add `name: '<name>'`", code: "invalid_type" }]);
  });

  it("reports the union itself when no branch matches the type", () => {
    const found = format({ title: "t", count: 1, tags: [], mode: "a", binding: 5 });
    expect(found).toEqual([
      { path: "binding", message: "does not match any accepted form (got 5)", code: "invalid_union" },
    ]);
  });

  it("keeps custom messages and reports strict unknown keys", () => {
    const strict = z.strictObject({ a: z.string().refine((v) => v === "ok", { error: "a must be 'ok'" }) });
    const r = strict.safeParse({ a: "no", b: 1 });
    expect(formatZodIssues(r.error!.issues)).toEqual([
      { path: "a", message: "a must be 'ok'", code: "custom" },
      { path: "", message: "unknown field 'b': remove it or check the spelling", code: "unrecognized_keys" },
    ]);
  });

  it("renders issues as text lines", () => {
    expect(
      issuesToText([
        { path: "sideA.prompt", message: "required", code: "invalid_type" },
        { path: "", message: "must be an object", code: "invalid_type" },
      ]),
    ).toBe("sideA.prompt: required\nmust be an object");
  });
});
