import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NO_RULE_CONTENT, startFakeLlm, type FakeLlm } from "./server";

let fake: FakeLlm;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeLlm();
  client = new OpenAI({ baseURL: fake.url, apiKey: "test", maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.clearRequests());

const user = (content: string) => [{ role: "user" as const, content }];

describe("non-streaming chat completions", () => {
  it("answers with the scripted text, echoes the model and reports usage", async () => {
    fake.setScript([{ respond: { content: "Hello from the script." } }]);
    const completion = await client.chat.completions.create({ model: "gpt-test", messages: user("hi there") });
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("gpt-test");
    expect(completion.choices[0]?.message).toMatchObject({ role: "assistant", content: "Hello from the script." });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    // "hi there" is 8 characters -> 2 tokens; the answer is 22 characters -> 6 tokens.
    expect(completion.usage).toMatchObject({
      prompt_tokens: 2,
      completion_tokens: 6,
      total_tokens: 8,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it("returns tool calls with finish_reason tool_calls and JSON arguments", async () => {
    fake.setScript([{ respond: { tool_calls: [{ name: "lookup", arguments: { q: "paris", n: 2 } }] } }]);
    const completion = await client.chat.completions.create({ model: "m", messages: user("find paris") });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type).toBe("function");
    expect(call?.id).toMatch(/^call_/);
    if (call?.type !== "function") throw new Error("expected a function tool call");
    expect(call.function.name).toBe("lookup");
    expect(JSON.parse(call.function.arguments)).toEqual({ q: "paris", n: 2 });
  });

  it("passes malformed tool-call arguments through verbatim", async () => {
    fake.setScript([{ respond: { tool_calls: [{ name: "broken", arguments: '{"a": 1,,' }] } }]);
    const completion = await client.chat.completions.create({ model: "m", messages: user("x") });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== "function") throw new Error("expected a function tool call");
    expect(call.function.arguments).toBe('{"a": 1,,');
  });

  it("applies usage overrides, including cached tokens", async () => {
    fake.setScript([
      { respond: { content: "ok", usage: { prompt_tokens: 1000, completion_tokens: 5, cached_tokens: 400 } } },
    ]);
    const completion = await client.chat.completions.create({ model: "m", messages: user("x") });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 1000,
      completion_tokens: 5,
      total_tokens: 1005,
      prompt_tokens_details: { cached_tokens: 400 },
    });
  });

  it("returns reasoning as message.reasoning_content", async () => {
    fake.setScript([{ respond: { content: "42", reasoning: "Think step by step." } }]);
    const completion = await client.chat.completions.create({ model: "m", messages: user("x") });
    const message = completion.choices[0]?.message as unknown as Record<string, unknown>;
    expect(message.reasoning_content).toBe("Think step by step.");
    expect(message.content).toBe("42");
  });

  it("answers the no-match text and logs matched: null when no rule applies", async () => {
    fake.setScript([{ when: { model: "other" }, respond: { content: "not for you" } }]);
    const completion = await client.chat.completions.create({ model: "m", messages: user("x") });
    expect(completion.choices[0]?.message.content).toBe(NO_RULE_CONTENT);
    expect(fake.getRequests().map((r) => r.matched)).toEqual([null]);
  });
});

describe("streaming chat completions", () => {
  it("streams text as several content deltas that assemble to the scripted text", async () => {
    const text = "The quick brown fox jumps over the lazy dog.";
    fake.setScript([{ respond: { content: text } }]);
    const stream = await client.chat.completions.create({ model: "m-stream", messages: user("go"), stream: true });
    const pieces: string[] = [];
    const finishReasons: (string | null)[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      expect(chunk.model).toBe("m-stream");
      const choice = chunk.choices[0];
      if (choice?.delta.content) pieces.push(choice.delta.content);
      if (choice) finishReasons.push(choice.finish_reason);
    }
    expect(pieces.length).toBe(9);
    expect(pieces.join("")).toBe(text);
    expect(finishReasons.at(-1)).toBe("stop");
  });

  it("sends a final usage chunk when stream_options.include_usage is set", async () => {
    fake.setScript([{ respond: { content: "abcd efgh" } }]);
    const stream = await client.chat.completions.create({
      model: "m",
      messages: user("abcdefgh"),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    expect(last?.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it("streams tool calls whose argument fragments the SDK's stream helper reassembles", async () => {
    const args = { path: "/attachments/report.md", content: "A fairly long body of text to split up." };
    fake.setScript([
      {
        respond: {
          content: "Writing two files.",
          tool_calls: [
            { name: "write_file", arguments: args },
            { name: "notify", arguments: { to: "team" }, id: "call_fixed" },
          ],
        },
      },
    ]);
    const fragments: string[] = [];
    const stream = client.chat.completions
      .stream({ model: "m", messages: user("write"), stream_options: { include_usage: true } })
      .on("tool_calls.function.arguments.delta", (event) => fragments.push(event.arguments_delta));
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBe("Writing two files.");
    const calls = choice?.message.tool_calls ?? [];
    expect(calls).toHaveLength(2);
    const [first, second] = calls;
    if (first?.type !== "function" || second?.type !== "function") throw new Error("expected function tool calls");
    expect(first.function.name).toBe("write_file");
    expect(JSON.parse(first.function.arguments)).toEqual(args);
    expect(second.id).toBe("call_fixed");
    expect(JSON.parse(second.function.arguments)).toEqual({ to: "team" });
    expect(fragments.length).toBeGreaterThan(4);
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("sends the tool call id and name in the first delta and arguments in later fragments", async () => {
    fake.setScript([{ respond: { tool_calls: [{ name: "lookup", arguments: '{"q": "oops' }] } }]);
    const stream = await client.chat.completions.create({ model: "m", messages: user("x"), stream: true });
    const toolDeltas = [];
    for await (const chunk of stream) toolDeltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
    const [head, ...rest] = toolDeltas;
    expect(head).toMatchObject({ index: 0, type: "function", function: { name: "lookup", arguments: "" } });
    expect(head?.id).toMatch(/^call_/);
    expect(rest.length).toBeGreaterThanOrEqual(2);
    expect(rest.every((d) => d.id === undefined && d.function?.name === undefined)).toBe(true);
    // Malformed JSON arrives exactly as scripted.
    expect(rest.map((d) => d.function?.arguments).join("")).toBe('{"q": "oops');
  });

  it("streams reasoning before content as reasoning_content deltas", async () => {
    fake.setScript([{ respond: { reasoning: "Let me think.", content: "Done." } }]);
    const stream = await client.chat.completions.create({ model: "m", messages: user("x"), stream: true });
    const order: string[] = [];
    let reasoning = "";
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as Record<string, unknown> | undefined;
      if (typeof delta?.reasoning_content === "string") {
        reasoning += delta.reasoning_content;
        order.push("reasoning");
      }
      if (typeof delta?.content === "string" && delta.content !== "") order.push("content");
    }
    expect(reasoning).toBe("Let me think.");
    expect(order.indexOf("content")).toBeGreaterThan(order.lastIndexOf("reasoning"));
  });
});
