import { z } from "zod";
import { describe, expect, it } from "vitest";
import { safeParseDefinition } from "./parse-definition";
import { DEFINE_HELPERS, DEFINITION_KINDS, DEFINITION_KIND_SINGULAR, isDefinitionKind } from "./registry-names";
import { unknownDefinitionKeys } from "./unknown-keys";

describe("safeParseDefinition", () => {
  it("parses each kind with its schema", () => {
    const agent = safeParseDefinition("agents", { name: "a", sideA: { prompt: "p" } });
    expect(agent.success && agent.data.type).toBe("ai_human");
    const tool = safeParseDefinition("tools", { description: "d", args: z.object({}), execute: () => "" });
    expect(tool.success).toBe(true);
    const hook = safeParseDefinition("hooks", { id: "h", hook: "after_create_message", execute: () => undefined });
    expect(hook.success && hook.data.hook).toBe("after_create_message");
    expect(safeParseDefinition("models", { name: "m", provider: "openai", model: "x" }).success).toBe(true);
    expect(safeParseDefinition("prompts", { name: "p", prompt: "x", model: "m" }).success).toBe(true);
    expect(safeParseDefinition("effects", { name: "e", execute: () => undefined }).success).toBe(true);
  });

  it("returns formatted issues with dotted paths", () => {
    const r = safeParseDefinition("agents", {
      name: "a",
      sideA: { prompt: "p", sessionStop: { messageProperty: "x" } },
    });
    expect(r).toEqual({
      success: false,
      issues: [{ path: "sideA.sessionStop.name", message: "required: add `name: '<name>'`", code: "invalid_type" }],
    });
  });

  it.each([
    [undefined, "undefined"],
    [null, "null"],
    ["agent", "string"],
    [[1], "an array"],
  ])("rejects a default export that is not an object (%j)", (value, shown) => {
    expect(safeParseDefinition("agents", value)).toEqual({
      success: false,
      issues: [{ path: "", code: "invalid_type", message: `the default export must be an object (got ${shown})` }],
    });
  });
});

describe("unknownDefinitionKeys", () => {
  it("finds misspelled keys at the top, in agent sides and in prompt tool entries", () => {
    expect(
      unknownDefinitionKeys("agents", {
        name: "a",
        sideA: { prompt: "p", sessionstop: "x", failSessionTool: "f" },
        sideB: { prompt: "q", labels: "y" },
        maxTurns: 3,
      }),
    ).toEqual(["maxTurns", "sideA.sessionstop", "sideB.labels"]);
    expect(
      unknownDefinitionKeys("prompts", {
        name: "p",
        prompt: "x",
        model: "m",
        tools: ["a", { name: "b", initUserMessageProprety: "m" }],
      }),
    ).toEqual(["tools.1.initUserMessageProprety"]);
    expect(unknownDefinitionKeys("hooks", { id: "h", hook: "filter_messages", execute: 1, priority: 2 })).toEqual([
      "priority",
    ]);
    expect(unknownDefinitionKeys("models", "not an object")).toEqual([]);
  });
});

describe("registry names", () => {
  it("lists the six kinds with singular names and helpers", () => {
    expect(DEFINITION_KINDS).toEqual(["agents", "prompts", "models", "tools", "hooks", "effects"]);
    expect(DEFINITION_KINDS.map((k) => DEFINITION_KIND_SINGULAR[k])).toEqual([
      "agent",
      "prompt",
      "model",
      "tool",
      "hook",
      "effect",
    ]);
    expect(DEFINE_HELPERS.tools).toBe("defineTool");
    expect(isDefinitionKind("prompts")).toBe(true);
    expect(isDefinitionKind("prompt")).toBe(false);
  });
});
