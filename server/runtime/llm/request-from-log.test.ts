import { describe, expect, it } from "vitest";
import { toProviderMessages, toProviderRequest, toProviderTools } from "./chat-wire";
import { toAnthropicBody } from "./providers/anthropic-body";
import { requestFromLog } from "./request-from-log";
import type { ChatMessage, ChatTool, LlmRequest, ResolvedModel } from "./types";

const messages: ChatMessage[] = [
  { role: "system", content: "You help." },
  { role: "user", content: "Count the words of 'a b c'." },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "word_count", arguments: '{"text":"a b c"}' } }] },
  { role: "tool", tool_call_id: "call_1", content: "3" },
];
const tools: ChatTool[] = [{ type: "function", function: { name: "word_count", description: "Counts words", parameters: { type: "object", properties: { text: { type: "string" } } } } }];
const model: ResolvedModel = { name: "m", provider: "anthropic", model: "claude-x" };
const request: LlmRequest = { models: [model], messages, tools, toolChoice: "auto" };

describe("requestFromLog", () => {
  it("reads a Chat Completions body back as the call, sampling fields as provider options", () => {
    const body = { model: "gpt-x", stream: true, stream_options: { include_usage: true }, messages, tools, tool_choice: "auto", temperature: 0.2 };
    expect(requestFromLog(body)).toEqual({ messages, tools, toolChoice: "auto", providerOptions: { temperature: 0.2 } });
  });

  it("reads the spec's ProviderRequest back", () => {
    const body = toProviderRequest(request, toProviderMessages(messages), toProviderTools(tools), { ...model, provider: "custom" });
    const out = requestFromLog(body);
    expect(out.messages).toEqual(messages);
    expect(out.tools).toEqual(tools);
  });

  it("reads an Anthropic Messages body back (system, tool_use, tool_result)", () => {
    const body = toAnthropicBody(toProviderRequest(request, toProviderMessages(messages), toProviderTools(tools), model));
    const out = requestFromLog(body);
    expect(out.messages).toEqual(messages);
    expect(out.tools).toEqual(tools);
    expect(out.toolChoice).toBe("auto");
    expect(out.providerOptions).toEqual({ max_tokens: body.max_tokens });
  });

  it("names the field of a body it cannot read", () => {
    expect(() => requestFromLog({ messages: [] })).toThrow(/messages: must be a non-empty array/);
    expect(() => requestFromLog({ messages: [{ role: "robot", content: "x" }] })).toThrow(/messages\.0\.role/);
    expect(() => requestFromLog({ messages: [{ role: "tool", content: "x" }] })).toThrow(/messages\.0\.tool_call_id/);
    expect(() => requestFromLog("text")).toThrow(/must be a JSON object/);
  });
});
