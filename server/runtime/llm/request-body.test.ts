import { describe, expect, it } from "vitest";
import { mapReasoningLevel as reasoningFields } from "@/server/spec";
import { toProviderRequest } from "./chat-wire";
import { buildRequestBody as buildBody } from "./request-body";
import type { LlmRequest, ResolvedModel } from "./types";

const buildRequestBody = (request: LlmRequest, m: ResolvedModel) => buildBody(toProviderRequest(request, [], undefined, m));

const model = { name: "m", provider: "openai", model: "remote-m" };

describe("reasoning config → request body", () => {
  it("effort alone is the standard reasoning_effort field, with no reasoning object", () => {
    expect(reasoningFields({ effort: "low" })).toEqual({ reasoning_effort: "low" });
    expect(reasoningFields(undefined)).toEqual({});
  });

  it("a token budget goes into the reasoning object and replaces the effort level", () => {
    expect(reasoningFields({ effort: "high", maxTokens: 2000 })).toEqual({ reasoning: { max_tokens: 2000 } });
  });

  it("exclude and include map to reasoning.exclude; an explicit exclude wins", () => {
    expect(reasoningFields({ effort: "medium", exclude: true })).toEqual({ reasoning_effort: "medium", reasoning: { effort: "medium", exclude: true } });
    expect(reasoningFields({ include: false })).toEqual({ reasoning: { exclude: true } });
    expect(reasoningFields({ include: true })).toEqual({ reasoning: { exclude: false } });
    expect(reasoningFields({ include: true, exclude: true })).toEqual({ reasoning: { exclude: true } });
  });

  it("provider-specific keys are passed in the reasoning object as written", () => {
    expect(reasoningFields({ enabled: true })).toEqual({ reasoning: { enabled: true } });
  });

  it("the model's provider options sit under the reasoning fields, the prompt's over them", () => {
    const body = buildRequestBody(
      { models: [], messages: [], reasoning: { effort: "high" }, providerOptions: { top_p: 0.5 } },
      { ...model, providerOptions: { reasoning_effort: "low", temperature: 0 } },
    );
    expect(body).toMatchObject({ reasoning_effort: "high", temperature: 0, top_p: 0.5 });
    const overridden = buildRequestBody({ models: [], messages: [], reasoning: { effort: "high" }, providerOptions: { reasoning_effort: "minimal" } }, model);
    expect(overridden.reasoning_effort).toBe("minimal");
  });
});
