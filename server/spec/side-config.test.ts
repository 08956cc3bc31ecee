import { describe, expect, it } from "vitest";
import { agentDefinitionSchema } from "./agent";
import { deprecationMessage } from "./deprecation";
import { agentDeprecatedAliases } from "./deprecations";
import { formatZodIssues } from "./format-issues";
import { normalizeSessionBinding, sessionToolBindingSchema } from "./session-binding";
import { sideConfigSchema } from "./side-config";

describe("sideConfigSchema", () => {
  it("requires prompt and defaults stopOnResponse to true", () => {
    expect(sideConfigSchema.parse({ prompt: "writer" })).toEqual({
      prompt: "writer",
      stopOnResponse: true,
      deprecatedAliases: [],
    });
    const r = sideConfigSchema.safeParse({ label: "Writer" });
    expect(r.success).toBe(false);
    const [issue] = formatZodIssues(r.error!.issues);
    expect(issue?.path).toBe("prompt");
    expect(issue?.message).toMatch(/^required: add `prompt: /);
  });

  it("keeps stopTool, stopToolResponseProperty, label and maxSteps", () => {
    const side = sideConfigSchema.parse({
      prompt: "writer",
      label: "Writer",
      stopOnResponse: false,
      stopTool: "submit",
      stopToolResponseProperty: "text",
      maxSteps: 12,
    });
    expect(side).toEqual({
      prompt: "writer",
      label: "Writer",
      stopOnResponse: false,
      stopTool: "submit",
      stopToolResponseProperty: "text",
      maxSteps: 12,
      deprecatedAliases: [],
    });
  });

  it.each([
    ["failSessionTool", "sessionFail"],
    ["statusTool", "sessionStatus"],
    ["stopSessionTool", "sessionStop"],
    ["endSessionTool", "sessionStop"],
  ] as const)("moves the deprecated %s into %s and records it", (alias, target) => {
    const side = sideConfigSchema.parse({ prompt: "p", [alias]: "legacy_tool" });
    expect(side[target]).toBe("legacy_tool");
    expect(alias in side).toBe(false);
    expect(side.deprecatedAliases).toEqual([{ field: alias, replacement: target }]);
  });

  it("keeps the new field when an alias names the same tool, and still records the alias", () => {
    const side = sideConfigSchema.parse({
      prompt: "p",
      sessionFail: { name: "give_up", messageProperty: "reason" },
      failSessionTool: "give_up",
    });
    expect(side.sessionFail).toEqual({ name: "give_up", messageProperty: "reason" });
    expect(side.deprecatedAliases).toEqual([{ field: "failSessionTool", replacement: "sessionFail" }]);
  });

  it("rejects an alias that names another tool than its replacement", () => {
    const r = sideConfigSchema.safeParse({ prompt: "p", sessionStop: "finish", endSessionTool: "done" });
    expect(r.success).toBe(false);
    expect(formatZodIssues(r.error!.issues)).toEqual([
      {
        path: "endSessionTool",
        message:
          'endSessionTool (deprecated) names "done" but sessionStop names "finish": remove endSessionTool and keep sessionStop',
        code: "custom",
      },
    ]);
  });

  it("rejects two stop aliases that disagree", () => {
    const r = sideConfigSchema.safeParse({ prompt: "p", stopSessionTool: "a", endSessionTool: "b" });
    expect(r.success).toBe(false);
    expect(formatZodIssues(r.error!.issues)).toEqual([
      {
        path: "endSessionTool",
        message:
          'stopSessionTool and endSessionTool (both deprecated) name different tools ("a", "b"): keep one, written as sessionStop',
        code: "custom",
      },
    ]);
  });

  it("reports aliases with full paths at agent level, with a readable warning", () => {
    const agent = agentDefinitionSchema.parse({
      name: "legacy",
      type: "dual_ai",
      sideA: { prompt: "a", failSessionTool: "fail" },
      sideB: { prompt: "b", statusTool: "status", stopSessionTool: "stop" },
      tenvs: { X: {} },
    });
    const aliases = agentDeprecatedAliases(agent);
    expect(aliases).toEqual([
      { field: "sideA.failSessionTool", replacement: "sessionFail" },
      { field: "sideB.statusTool", replacement: "sessionStatus" },
      { field: "sideB.stopSessionTool", replacement: "sessionStop" },
      { field: "tenvs", replacement: "env" },
    ]);
    expect(deprecationMessage(aliases[0]!)).toBe("`sideA.failSessionTool` is deprecated: use `sessionFail` instead");
    expect(agent.sideB?.sessionStop).toBe("stop");
  });

  it("rejects a session binding object without a name, pointing at the name field", () => {
    const value = { prompt: "p", sessionStop: { messageProperty: "summary" } };
    const r = sideConfigSchema.safeParse(value);
    expect(formatZodIssues(r.error!.issues, value)).toEqual([
      { path: "sessionStop.name", message: "required: add `name: '<name>'`", code: "invalid_type" },
    ]);
  });

  it("rejects a session binding of the wrong type with both accepted forms in the message", () => {
    const value = { prompt: "p", sessionFail: 42 };
    const r = sideConfigSchema.safeParse(value);
    const [issue] = formatZodIssues(r.error!.issues, value);
    expect(issue?.path).toBe("sessionFail");
    expect(issue?.message).toContain("must be a tool name or { name: '<tool name>'");
    expect(issue?.message).toContain("(got number)");
  });
});

describe("session bindings", () => {
  it("accepts the string and the object form", () => {
    expect(sessionToolBindingSchema.parse("approve")).toBe("approve");
    expect(sessionToolBindingSchema.parse({ name: "approve", messageProperty: "summary", extra: 1 })).toEqual({
      name: "approve",
      messageProperty: "summary",
    });
  });

  it("rejects an empty tool name", () => {
    expect(sessionToolBindingSchema.safeParse("  ").success).toBe(false);
    expect(sessionToolBindingSchema.safeParse({ name: "" }).success).toBe(false);
  });

  it("normalises to the object form", () => {
    expect(normalizeSessionBinding(undefined)).toBeUndefined();
    expect(normalizeSessionBinding("approve")).toEqual({ name: "approve" });
    expect(normalizeSessionBinding({ name: "approve", attachmentsProperty: "files" })).toEqual({
      name: "approve",
      attachmentsProperty: "files",
    });
  });
});
