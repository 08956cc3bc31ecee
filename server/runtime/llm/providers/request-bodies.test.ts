import { describe, expect, it } from "vitest";
import type { ProviderRequest } from "@/server/spec";
import { toGoogleParams } from "./google-body";
import { toResponsesBody } from "./openai-responses-body";

const PIXEL = "data:image/png;base64,iVBORw0KGgo=";

describe("Gemini parameters (google-body)", () => {
  it("maps images, tool results by the call's name, signatures of this format only, and reasoning", () => {
    const request: ProviderRequest = {
      model: "gemini-x",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "look" }, { type: "image", url: PIXEL }, { type: "image", url: "https://example.com/cat.webp" }] },
        {
          role: "assistant",
          content: null,
          toolCalls: [{ id: "c1", name: "echo", arguments: '{"text":"hi"}' }],
          reasoningDetails: [
            { type: "encrypted", data: "sig-c1", format: "google-gemini-v1", id: "c1" },
            { type: "text", text: "x", signature: "anthropic-sig", format: "anthropic-claude-v1" },
          ],
        },
        { role: "tool", toolCallId: "c1", content: "echo: hi" },
      ],
      reasoning: { effort: "high", exclude: true },
      maxOutputTokens: 100,
      providerOptions: { temperature: 0.2, systemInstruction: "ignored" },
    };
    const p = toGoogleParams(request);
    expect(p.config).toEqual({ systemInstruction: "Be brief.", maxOutputTokens: 100, thinkingConfig: { includeThoughts: false, thinkingBudget: 24576 }, temperature: 0.2 });
    expect(p.contents).toEqual([
      { role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }, { fileData: { fileUri: "https://example.com/cat.webp", mimeType: "image/webp" } }] },
      { role: "model", parts: [{ functionCall: { id: "c1", name: "echo", args: { text: "hi" } }, thoughtSignature: "sig-c1" }] },
      { role: "user", parts: [{ functionResponse: { id: "c1", name: "echo", response: { result: "echo: hi" } } }] },
    ]);
  });
});

describe("Responses API body (openai-responses-body)", () => {
  it("maps images, a token budget to the nearest effort, and sends back only reasoning items it can (with encrypted content)", () => {
    const body = toResponsesBody({
      model: "o-x",
      messages: [
        { role: "user", content: [{ type: "text", text: "look" }, { type: "image", url: PIXEL, detail: "low" }] },
        {
          role: "assistant",
          content: "Seen.",
          reasoningDetails: [
            { type: "encrypted", id: "rs_1", data: "enc", format: "openai-responses-v1" },
            { type: "summary", id: "rs_2", text: "no encrypted content", format: "openai-responses-v1" },
          ],
        },
      ],
      reasoning: { maxTokens: 6000 },
      providerOptions: { model: "other", store: true, temperature: 1 },
    });
    expect(body).toMatchObject({ model: "o-x", store: true, temperature: 1, reasoning: { effort: "medium", summary: "auto" }, include: ["reasoning.encrypted_content"], stream: true });
    expect(body.input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "look" }, { type: "input_image", image_url: PIXEL, detail: "low" }] },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" },
      { role: "assistant", content: "Seen." },
    ]);
  });
});
