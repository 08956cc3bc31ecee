import { describe, expect, it } from "vitest";
import { StreamAssembler, usageFromWire } from "./stream-assembler";

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe("StreamAssembler", () => {
  it("joins text and reasoning from either reasoning field", () => {
    const a = new StreamAssembler();
    expect(a.add(chunk({ role: "assistant", reasoning: "Let me " }))).toEqual({
      reasoning: "Let me ",
      toolCall: false,
    });
    a.add(chunk({ reasoning_content: "think." }));
    expect(a.add(chunk({ content: "Hi" }))).toEqual({ content: "Hi", toolCall: false });
    a.add(chunk({ content: " there" }, "stop"));
    expect(a.reasoning).toBe("Let me think.");
    expect(a.content).toBe("Hi there");
    expect(a.finishReason).toBe("stop");
    expect(a.chunks).toBe(4);
  });

  it("keeps content null when the model sent none, and empty when it sent an empty string", () => {
    const none = new StreamAssembler();
    none.add(chunk({ role: "assistant", content: null }, "stop"));
    expect(none.content).toBeNull();
    const empty = new StreamAssembler();
    empty.add(chunk({ role: "assistant", content: "" }, "stop"));
    expect(empty.content).toBe("");
  });

  it("assembles interleaved tool calls by index and keeps arguments verbatim", () => {
    const a = new StreamAssembler();
    a.add(
      chunk({ tool_calls: [{ index: 1, id: "b", type: "function", function: { name: "second", arguments: "" } }] }),
    );
    a.add(
      chunk({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "first", arguments: '{"x":' } }] }),
    );
    a.add(chunk({ tool_calls: [{ index: 1, function: { arguments: "{not json" } }] }));
    a.add(chunk({ tool_calls: [{ index: 0, function: { name: "first", arguments: "1}" } }] }, "tool_calls"));
    expect(a.toolCalls).toEqual([
      { id: "a", name: "first", arguments: '{"x":1}' },
      { id: "b", name: "second", arguments: "{not json" },
    ]);
  });

  it("copes with servers that omit the index or the id", () => {
    const a = new StreamAssembler();
    a.add(chunk({ tool_calls: [{ id: "c1", function: { name: "one", arguments: "{}" } }] }));
    a.add(chunk({ tool_calls: [{ id: "c2", function: { name: "two", arguments: '{"a":' } }] }));
    a.add(chunk({ tool_calls: [{ function: { arguments: "2}" } }] }));
    a.add(chunk({ tool_calls: [{ index: 5, function: { name: "three", arguments: "{}" } }] }));
    expect(a.toolCalls).toEqual([
      { id: "c1", name: "one", arguments: "{}" },
      { id: "c2", name: "two", arguments: '{"a":2}' },
      { id: "call_5", name: "three", arguments: "{}" },
    ]);
  });

  it("takes usage from the final chunk", () => {
    const a = new StreamAssembler();
    a.add({ choices: [{ index: 0, delta: { content: "x" }, finish_reason: "stop" }], usage: null });
    a.add({
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 8 } },
    });
    expect(a.usage).toEqual({ inputTokens: 12, outputTokens: 3, cachedTokens: 8 });
  });
});

describe("usageFromWire", () => {
  it("reads DeepSeek's cache-hit field and treats missing usage as zero", () => {
    expect(usageFromWire({ prompt_tokens: 10, completion_tokens: 2, prompt_cache_hit_tokens: 6 })).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cachedTokens: 6,
    });
    expect(usageFromWire(null)).toEqual({ inputTokens: 0, outputTokens: 0, cachedTokens: 0 });
  });
});
