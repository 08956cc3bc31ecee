import { describe, expect, it } from "vitest";
import { defineModel } from "./define";
import { formatZodIssues } from "./format-issues";
import { modelDefinitionSchema } from "./model";

function issues(value: unknown) {
  const r = modelDefinitionSchema.safeParse(value);
  if (r.success) throw new Error("expected the value to be rejected");
  return formatZodIssues(r.error.issues, value);
}

describe("modelDefinitionSchema", () => {
  it("accepts a full model definition and keeps every field", () => {
    const model = defineModel({
      name: "careful",
      provider: "openai",
      model: "gpt-4.1",
      baseURL: "http://127.0.0.1:8787/v1",
      apiKeyEnv: "OPENAI_API_KEY",
      fallbacks: ["fast"],
      inputPrice: 2,
      outputPrice: 8,
      cachedPrice: 0.5,
      capabilities: { vision: true, tools: true, streaming: true, maxContextTokens: 1_000_000, custom: "kept" },
      providerOptions: { temperature: 0.2 },
    });
    expect(modelDefinitionSchema.parse(model)).toEqual(model);
  });

  it("accepts the minimal form and model names with dots", () => {
    expect(modelDefinitionSchema.parse({ name: "gpt-4.1-mini", provider: "openai", model: "gpt-4.1-mini" })).toEqual({
      name: "gpt-4.1-mini",
      provider: "openai",
      model: "gpt-4.1-mini",
    });
  });

  it("says which fields are missing and what to write", () => {
    expect(issues({ name: "fast" })).toEqual([
      { path: "provider", message: "required: add `provider: 'openai'`", code: "invalid_type" },
      { path: "model", message: "required: add `model: '<model name>'`", code: "invalid_type" },
    ]);
  });

  it("rejects negative prices, a non-http baseURL and a bad apiKeyEnv", () => {
    const found = issues({
      name: "fast",
      provider: "openai",
      model: "m",
      inputPrice: -1,
      baseURL: "ftp://example.com",
      apiKeyEnv: "my key",
    });
    expect(found.map((i) => i.path)).toEqual(["baseURL", "apiKeyEnv", "inputPrice"]);
    expect(found[0]?.message).toBe("baseURL must be an http(s) URL such as 'http://127.0.0.1:8080/v1'");
    expect(found[2]?.message).toBe("inputPrice must be 0 or more (USD per million tokens)");
  });

  it("rejects an empty fallback name and a bad capability type", () => {
    const found = issues({
      name: "f",
      provider: "openai",
      model: "m",
      fallbacks: [""],
      capabilities: { vision: "yes" },
    });
    expect(found.map((i) => [i.path, i.message])).toEqual([
      ["fallbacks.0", "fallback model must not be empty"],
      ["capabilities.vision", "must be a boolean (got string)"],
    ]);
  });
});
