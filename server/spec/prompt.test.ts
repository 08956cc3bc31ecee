import { z } from "zod";
import { describe, expect, it } from "vitest";
import { definePrompt } from "./define";
import { promptDeprecatedAliases } from "./deprecations";
import { formatZodIssues } from "./format-issues";
import { promptDefinitionSchema } from "./prompt";

function issues(value: unknown) {
  const r = promptDefinitionSchema.safeParse(value);
  if (r.success) throw new Error("expected the value to be rejected");
  return formatZodIssues(r.error.issues, value);
}

describe("promptDefinitionSchema", () => {
  it("accepts the skill guide's tone prompt and applies every default", () => {
    const prompt = promptDefinitionSchema.parse({
      name: "company_tone",
      toolDescription: "Defines the tone and style of the chatbot.",
      prompt: "You are a friendly and helpful customer support assistant for an athletic shoe company.",
      model: "tiny",
    });
    expect(prompt).toEqual({
      name: "company_tone",
      toolDescription: "Defines the tone and style of the chatbot.",
      prompt: "You are a friendly and helpful customer support assistant for an athletic shoe company.",
      model: "tiny",
      includeChat: false,
      includePastTools: false,
      parallelToolCalls: false,
      toolChoice: "auto",
      variables: [],
      tools: [],
      env: {},
      recentImageThreshold: 10,
    });
    expect(prompt.hooks).toBeUndefined();
  });

  it("accepts structured parts (include, text, env) and declared variables (ecommerce example)", () => {
    const prompt = promptDefinitionSchema.parse({
      name: "ecommerce_assistant",
      toolDescription: "Assistant for ecommerce businesses.",
      prompt: [
        { type: "include", prompt: "company_tone" },
        { type: "text", content: "You help customers with products and orders. Current inventory: " },
        { type: "env", property: "PRODUCT_INVENTORY" },
      ],
      model: "tiny",
      variables: [
        {
          name: "PRODUCT_INVENTORY",
          type: "text",
          required: true,
          description: "Full product inventory with names, descriptions, and stock levels.",
        },
      ],
    });
    expect(prompt.prompt).toHaveLength(3);
    expect(prompt.variables[0]).toEqual({
      name: "PRODUCT_INVENTORY",
      type: "text",
      required: true,
      scoped: false,
      description: "Full product inventory with names, descriptions, and stock levels.",
    });
  });

  it("accepts the builder docs' orchestrator prompt with a resumable subagent entry", () => {
    const prompt = promptDefinitionSchema.parse(
      definePrompt({
        name: "orchestrator_prompt",
        toolDescription: "Orchestrates specialized child workers",
        model: "base_model",
        prompt: "Delegate work to subagents and aggregate results.",
        tools: [
          {
            name: "topdown_asset_subagent",
            blocking: false,
            initUserMessageProperty: "message",
            initAttachmentsProperty: "attachments",
            initAgentNameProperty: "name",
            resumable: { receives_messages: "side_a", maxInstances: 20 },
          },
        ],
      }),
    );
    expect(prompt.tools[0]).toEqual({
      name: "topdown_asset_subagent",
      blocking: false,
      initUserMessageProperty: "message",
      initAttachmentsProperty: "attachments",
      initAgentNameProperty: "name",
      resumable: { receives_messages: "side_a", maxInstances: 20 },
    });
  });

  it("keeps requiredSchema as the very same zod object", () => {
    const schema = z.object({ text: z.string() });
    const prompt = promptDefinitionSchema.parse({
      name: "polish",
      prompt: "Polish",
      model: "m",
      requiredSchema: schema,
    });
    expect(prompt.requiredSchema).toBe(schema);
  });

  it("rejects a requiredSchema that is not a zod object schema, saying what to write", () => {
    expect(issues({ name: "p", prompt: "x", model: "m", requiredSchema: z.string() })).toEqual([
      {
        path: "requiredSchema",
        message:
          "requiredSchema must be a zod object schema: wrap the fields in z.object({ ... }) (got a zod string schema)",
        code: "custom",
      },
    ]);
    expect(issues({ name: "p", prompt: "x", model: "m", requiredSchema: { text: "string" } })[0]?.message).toBe(
      "requiredSchema must be a zod object schema, e.g. z.object({ text: z.string() })",
    );
  });

  it("accepts a zod object schema from another module instance (duck typing)", () => {
    const foreign = { _zod: { def: { type: "object" } }, safeParse: () => ({ success: true }) };
    expect(
      promptDefinitionSchema.safeParse({ name: "p", prompt: "x", model: "m", requiredSchema: foreign }).success,
    ).toBe(true);
  });

  it("keeps reasoning as a loose object and validates its known keys", () => {
    const prompt = promptDefinitionSchema.parse({
      name: "p",
      prompt: "x",
      model: "m",
      reasoning: { effort: "high", maxTokens: 2000, exclude: true, vendor_flag: 1 },
    });
    expect(prompt.reasoning).toEqual({ effort: "high", maxTokens: 2000, exclude: true, vendor_flag: 1 });
    expect(issues({ name: "p", prompt: "x", model: "m", reasoning: { effort: "max" } })).toEqual([
      {
        path: "reasoning.effort",
        message: `effort must be 'low', 'medium' or 'high' (got "max")`,
        code: "invalid_value",
      },
    ]);
  });

  it("keeps the other optional fields", () => {
    const prompt = promptDefinitionSchema.parse({
      name: "p",
      prompt: "x",
      model: "m",
      includeChat: true,
      includePastTools: true,
      parallelToolCalls: true,
      toolChoice: "required",
      recentImageThreshold: 0,
      providerOptions: { response_format: { type: "json_object" } },
      hooks: ["limit_to_20_messages"],
      env: { AUDIENCE: "engineers" },
    });
    expect(prompt).toMatchObject({
      includeChat: true,
      includePastTools: true,
      parallelToolCalls: true,
      toolChoice: "required",
      recentImageThreshold: 0,
      providerOptions: { response_format: { type: "json_object" } },
      hooks: ["limit_to_20_messages"],
      env: { AUDIENCE: "engineers" },
    });
  });

  it("accepts the deprecated tenvs (prompt and tool entry) and lists them", () => {
    const prompt = promptDefinitionSchema.parse({
      name: "p",
      prompt: "x",
      model: "m",
      tenvs: { KEY: {} },
      tools: ["a", { name: "file_search", tenvs: { VECTOR_STORE_ID: {} } }],
    });
    expect(promptDeprecatedAliases(prompt)).toEqual([
      { field: "tenvs", replacement: "env" },
      { field: "tools.1.tenvs", replacement: "env" },
    ]);
  });

  it("reports missing required fields with fixes", () => {
    expect(issues({ name: "p" })).toEqual([
      { path: "prompt", message: "required: add `prompt: '<system prompt text>'`", code: "invalid_union" },
      { path: "model", message: "required: add `model: '<model name>'`", code: "invalid_type" },
    ]);
  });

  it("reports bad parts with their index path", () => {
    const found = issues({
      name: "p",
      model: "m",
      prompt: [{ type: "text", content: "ok" }, { type: "env" }, { type: "markdown", content: "x" }],
    });
    expect(found).toEqual([
      { path: "prompt.1.property", message: "required: add `property: '<VARIABLE_NAME>'`", code: "invalid_type" },
      {
        path: "prompt.2.type",
        message: `must be one of 'text', 'include', 'env' (got "markdown")`,
        code: "invalid_union",
      },
    ]);
  });

  it("rejects an unknown toolChoice and a negative recentImageThreshold", () => {
    const found = issues({ name: "p", prompt: "x", model: "m", toolChoice: "any", recentImageThreshold: -1 });
    expect(found.map((i) => [i.path, i.message])).toEqual([
      ["toolChoice", `toolChoice must be 'auto', 'none' or 'required' (got "any")`],
      ["recentImageThreshold", "recentImageThreshold must be 0 or more"],
    ]);
  });
});
