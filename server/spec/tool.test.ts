import { z } from "zod";
import { describe, expect, it } from "vitest";
import { formatZodIssues } from "./format-issues";
import { toolDeprecatedAliases } from "./deprecations";
import type { ThreadState } from "./thread-state";
import { defineTool, toolDefinitionSchema } from "./tool";

function issues(value: unknown) {
  const r = toolDefinitionSchema.safeParse(value);
  if (r.success) throw new Error("expected the value to be rejected");
  return formatZodIssues(r.error.issues, value);
}

const wordCount = defineTool({
  description: "Count the words in a text.",
  args: z.object({ text: z.string() }),
  execute: async (_state, args) => String(args.text.split(/\s+/).filter(Boolean).length),
});

describe("toolDefinitionSchema", () => {
  it("keeps onInterrupt ('rerun' or 'fail', absent by default) and rejects any other value", () => {
    expect(toolDefinitionSchema.parse(wordCount).onInterrupt).toBeUndefined();
    expect(toolDefinitionSchema.parse(defineTool({ ...wordCount, onInterrupt: "fail" })).onInterrupt).toBe("fail");
    expect(JSON.stringify(issues({ ...wordCount, onInterrupt: "retry" }))).toContain("onInterrupt must be 'rerun'");
  });

  it("keeps approval ('always' or a function) and approvalTimeout; rejects other values with the fix", () => {
    expect(toolDefinitionSchema.parse(wordCount).approval).toBeUndefined();
    expect(toolDefinitionSchema.parse(defineTool({ ...wordCount, approval: "always", approvalTimeout: 60_000 }))).toMatchObject({ approval: "always", approvalTimeout: 60_000 });
    const predicate = (_s: ThreadState, a: { text: string }) => a.text.length > 100;
    expect(toolDefinitionSchema.parse(defineTool({ ...wordCount, approval: predicate })).approval).toBe(predicate);
    expect(JSON.stringify(issues({ ...wordCount, approval: "sometimes" }))).toContain("approval must be 'always' or a function");
    expect(JSON.stringify(issues({ ...wordCount, approval: "always", approvalTimeout: -5 }))).toContain("approvalTimeout must be greater than 0");
    expect(JSON.stringify(issues({ ...wordCount, approvalTimeout: 1000 }))).toContain("approvalTimeout has no effect without approval");
  });

  it("accepts a defineTool result and keeps args and execute as given", async () => {
    const parsed = toolDefinitionSchema.parse(wordCount);
    expect(parsed.args).toBe(wordCount.args);
    expect(parsed.execute).toBe(wordCount.execute);
    expect(parsed.variables).toEqual([]);
    expect(await parsed.execute({} as ThreadState, { text: "one two  three" })).toBe("3");
  });

  it("accepts a tool without args, with variables and a matching name", () => {
    const parsed = toolDefinitionSchema.parse({
      name: "save_note",
      description: "Save a note.",
      variables: [{ name: "NOTES_SIGNING_KEY", type: "secret" }],
      execute: () => "saved",
    });
    expect(parsed.name).toBe("save_note");
    expect(parsed.variables).toEqual([
      { name: "NOTES_SIGNING_KEY", type: "secret", required: false, scoped: false, description: "" },
    ]);
  });

  it("requires a description and an execute function, saying what to add", () => {
    expect(issues({})).toEqual([
      {
        path: "description",
        message: "required: add `description: '<what the tool does, for the model>'`",
        code: "invalid_type",
      },
      { path: "execute", message: "required: add `execute: async (state, args) => { ... }`", code: "custom" },
    ]);
  });

  it("rejects a non-function execute, an empty description and non-object args", () => {
    const found = issues({ description: "  ", args: z.string(), execute: "run" });
    expect(found.map((i) => [i.path, i.message])).toEqual([
      ["description", "description must not be empty: tell the model what the tool does"],
      ["args", "args must be a zod object schema: wrap the fields in z.object({ ... }) (got a zod string schema)"],
      ["execute", "execute must be a function: `execute: async (state, args) => { ... }` (got string)"],
    ]);
  });

  it("lists the deprecated tenvs", () => {
    const parsed = toolDefinitionSchema.parse({ description: "d", tenvs: { A: {} }, execute: () => "" });
    expect(toolDeprecatedAliases(parsed)).toEqual([{ field: "tenvs", replacement: "variables" }]);
  });

  it("accepts tenvs in the spec's z.object form and declares its fields as variables", () => {
    const parsed = toolDefinitionSchema.parse({
      description: "d",
      variables: [{ name: "KNOWN", type: "secret" }],
      tenvs: z.object({ VECTOR_STORE_ID: z.string(), REGION: z.string().optional(), KNOWN: z.string() }),
      execute: () => "",
    });
    expect(parsed.variables.map((v) => [v.name, v.type, v.required])).toEqual([
      ["KNOWN", "secret", false],
      ["VECTOR_STORE_ID", "text", true],
      ["REGION", "text", false],
    ]);
  });
});
