import { z } from "zod";
import { describe, expectTypeOf, it } from "vitest";
import type { AgentDefinition, ParsedAgentDefinition } from "./agent";
import { defineAgent, defineModel, definePrompt } from "./define";
import type { ModelDefinition } from "./model";
import type { ParsedPromptDefinition, PromptDefinition } from "./prompt";
import type { ParsedSideConfig, SideConfig } from "./side-config";
import type { ToolEntry } from "./tool-entry";
import type { VariableDefinition } from "./variable";

describe("define helpers keep literal names", () => {
  it("defineAgent keeps the literal name and accepts the spec shape", () => {
    const agent = defineAgent({
      name: "asset_subagent",
      type: "dual_ai",
      maxSessionTurns: 40,
      exposeAsTool: true,
      toolDescription: "Generate assets.",
      sideA: { prompt: "asset_worker", sessionFail: { name: "fail_asset", messageProperty: "reason" } },
      sideB: { prompt: "asset_reviewer", stopOnResponse: false, sessionStop: "approve_asset", failSessionTool: "x" },
      hooks: ["log"],
    });
    expectTypeOf(agent.name).toEqualTypeOf<"asset_subagent">();
    expectTypeOf(agent).toExtend<AgentDefinition>();
  });

  it("definePrompt keeps the literal name and the requiredSchema type", () => {
    const schema = z.object({ text: z.string() });
    const prompt = definePrompt({ name: "polish_text", prompt: "Polish.", model: "fast", requiredSchema: schema });
    expectTypeOf(prompt.name).toEqualTypeOf<"polish_text">();
    expectTypeOf(prompt.requiredSchema).toEqualTypeOf<typeof schema | undefined>();
    expectTypeOf(prompt).toExtend<PromptDefinition>();
  });

  it("defineModel keeps the literal name", () => {
    const model = defineModel({ name: "fast", provider: "openai", model: "gpt-4.1-mini" });
    expectTypeOf(model.name).toEqualTypeOf<"fast">();
    expectTypeOf(model).toExtend<ModelDefinition>();
  });

  it("rejects wrong shapes at compile time", () => {
    // @ts-expect-error sideA is required
    defineAgent({ name: "a" });
    // @ts-expect-error type must be ai_human or dual_ai
    defineAgent({ name: "a", type: "solo", sideA: { prompt: "p" } });
    // @ts-expect-error toolChoice must be auto, none or required
    definePrompt({ name: "p", prompt: "x", model: "m", toolChoice: "any" });
    // @ts-expect-error resumable must be false or an object
    definePrompt({ name: "p", prompt: "x", model: "m", tools: [{ name: "a", resumable: true }] });
    // @ts-expect-error provider is required
    defineModel({ name: "m", model: "x" });
  });
});

describe("parsed types", () => {
  it("parsed definitions have their defaults filled in", () => {
    expectTypeOf<ParsedAgentDefinition["type"]>().toEqualTypeOf<"ai_human" | "dual_ai">();
    expectTypeOf<ParsedAgentDefinition["exposeAsTool"]>().toEqualTypeOf<boolean>();
    expectTypeOf<ParsedAgentDefinition["sideA"]>().toEqualTypeOf<ParsedSideConfig>();
    expectTypeOf<ParsedAgentDefinition["variables"]>().toEqualTypeOf<VariableDefinition[]>();
    expectTypeOf<ParsedPromptDefinition["tools"]>().toEqualTypeOf<ToolEntry[]>();
    expectTypeOf<ParsedPromptDefinition["toolChoice"]>().toEqualTypeOf<"auto" | "none" | "required">();
    expectTypeOf<ParsedSideConfig["stopOnResponse"]>().toEqualTypeOf<boolean>();
    expectTypeOf<SideConfig["stopOnResponse"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<VariableDefinition>().toEqualTypeOf<{
      name: string;
      type: "text" | "secret";
      required: boolean;
      scoped: boolean;
      description: string;
    }>();
  });
});
