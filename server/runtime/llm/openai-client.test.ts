/** The OpenAI-compatible client against the scripted server over real HTTP: streaming, tool calls, usage, body, abort. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { isAbortError } from "./errors";
import { createOpenAiClient } from "./llm-client";
import { modelOn, recorder, recordingSleep, userSays } from "./test-support";
import type { ChatTool } from "./types";

let fake: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());
beforeEach(() => fake.clearRequests());

const weatherTool: ChatTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("streaming text", () => {
  it("streams the text as deltas in order and returns the assembled answer", async () => {
    fake.setScript([{ respond: { content: "The quick brown fox jumps" } }]);
    const rec = recorder();
    const result = await createOpenAiClient().complete(
      { models: [modelOn(fake, "fast", "gpt-4.1-mini")], messages: userSays("hi") },
      rec.opts,
    );
    expect(rec.deltas).toEqual([
      { content: "The", attempt: 1 },
      { content: " quick", attempt: 1 },
      { content: " brown", attempt: 1 },
      { content: " fox", attempt: 1 },
      { content: " jumps", attempt: 1 },
    ]);
    expect(result).toMatchObject({
      content: "The quick brown fox jumps",
      reasoning: null,
      toolCalls: [],
      finishReason: "stop",
    });
    expect(result.model.name).toBe("fast");
    expect(rec.attempts).toHaveLength(1);
    expect(result.attempts).toEqual(rec.attempts);
    expect(rec.attempts[0]).toMatchObject({
      attempt: 1,
      status: "success",
      error: null,
      response: { content: "The quick brown fox jumps", tool_calls: [], finish_reason: "stop" },
    });
  });

  it("streams reasoning before the text and measures time to first token", async () => {
    fake.setScript([{ first_token_delay_ms: 120, respond: { reasoning: "Think it over.", content: "Done." } }]);
    const rec = recorder();
    const result = await createOpenAiClient().complete(
      { models: [modelOn(fake, "thinker", "o4-mini")], messages: userSays("solve") },
      rec.opts,
    );
    expect(rec.deltas).toEqual([
      { reasoning: "Think", attempt: 1 },
      { reasoning: " it", attempt: 1 },
      { reasoning: " over.", attempt: 1 },
      { content: "Done.", attempt: 1 },
    ]);
    expect(result.reasoning).toBe("Think it over.");
    expect(result.content).toBe("Done.");
    const attempt = rec.attempts[0]!;
    expect(attempt.ttftMs).toBeGreaterThanOrEqual(100);
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(attempt.ttftMs!);
    expect(attempt.finishedAt.getTime()).toBeGreaterThanOrEqual(attempt.startedAt.getTime());
    expect(attempt.response).toMatchObject({ reasoning: "Think it over." });
  });
});

describe("tool calls", () => {
  it("assembles several tool calls from fragmented arguments", async () => {
    const args = { city: "Paris", days: 3, units: "metric", note: "a fairly long argument to split in fragments" };
    fake.setScript([
      {
        respond: {
          tool_calls: [
            { name: "get_weather", arguments: args, id: "call_a" },
            { name: "get_time", arguments: { zone: "Europe/Paris" } },
          ],
        },
      },
    ]);
    const rec = recorder();
    const result = await createOpenAiClient().complete(
      { models: [modelOn(fake, "fast", "gpt-4.1-mini")], messages: userSays("weather?"), tools: [weatherTool] },
      rec.opts,
    );
    expect(result.finishReason).toBe("tool_calls");
    expect(result.content).toBeNull();
    expect(result.toolCalls).toEqual([
      { id: "call_a", name: "get_weather", arguments: JSON.stringify(args) },
      { id: expect.stringMatching(/^call_/), name: "get_time", arguments: '{"zone":"Europe/Paris"}' },
    ]);
    expect(rec.deltas).toEqual([]);
    expect(rec.attempts[0]?.ttftMs).not.toBeNull();
    expect(rec.attempts[0]?.response).toMatchObject({
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "get_weather", arguments: JSON.stringify(args) } },
        {},
      ],
    });
  });

  it("passes malformed tool-call JSON through verbatim", async () => {
    const broken = '{"city": "Par';
    fake.setScript([{ respond: { tool_calls: [{ name: "get_weather", arguments: broken }] } }]);
    const result = await createOpenAiClient().complete({
      models: [modelOn(fake, "fast", "gpt-4.1-mini")],
      messages: userSays("weather?"),
      tools: [weatherTool],
    });
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.arguments).toBe(broken);
    expect(result.attempts[0]?.status).toBe("success");
  });
});

describe("usage and cost", () => {
  it("reports tokens in, out and cached, and the cost from the model's prices", async () => {
    fake.setScript([
      { respond: { content: "ok", usage: { prompt_tokens: 1_000, completion_tokens: 200, cached_tokens: 400 } } },
    ]);
    const rec = recorder();
    const model = modelOn(fake, "priced", "gpt-4.1", { inputPrice: 2, outputPrice: 8, cachedPrice: 0.5 });
    const result = await createOpenAiClient().complete({ models: [model], messages: userSays("x") }, rec.opts);
    expect(result.usage).toEqual({ inputTokens: 1_000, outputTokens: 200, cachedTokens: 400 });
    expect(rec.attempts[0]?.usage).toEqual(result.usage);
    // (600 * 2 + 400 * 0.5 + 200 * 8) / 1e6
    expect(rec.attempts[0]?.cost).toBeCloseTo(0.003, 12);
    expect(rec.attempts[0]?.response).toMatchObject({ usage: { prompt_tokens: 1_000, completion_tokens: 200 } });
  });
});

describe("request body", () => {
  it("sends tool options, reasoning effort and provider options, and logs the body as sent", async () => {
    fake.setScript([{ respond: { content: "fine" } }]);
    const rec = recorder();
    const model = modelOn(fake, "careful", "vendor/model-v1:beta", { providerOptions: { temperature: 1, seed: 7 } });
    await createOpenAiClient().complete(
      {
        models: [model],
        messages: [{ role: "system", content: "Be brief." }, ...userSays("hello")],
        tools: [weatherTool],
        toolChoice: "required",
        parallelToolCalls: false,
        reasoning: { effort: "high" },
        providerOptions: { temperature: 0.2, top_p: 0.9, model: "not-this-one" },
      },
      rec.opts,
    );
    const sent = fake.getRequests()[0]!.body;
    expect(sent).toEqual({
      model: "vendor/model-v1:beta",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hello" },
      ],
      tools: [weatherTool],
      tool_choice: "required",
      parallel_tool_calls: false,
      reasoning_effort: "high",
      temperature: 0.2,
      seed: 7,
      top_p: 0.9,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(rec.attempts[0]?.request).toEqual(sent);
    expect(fake.getRequests()[0]?.headers.authorization).toBe(true);
  });

  it("leaves tools, tool_choice and parallel_tool_calls out when no tool is offered", async () => {
    fake.setScript([{ respond: { content: "fine" } }]);
    await createOpenAiClient().complete({
      models: [modelOn(fake, "fast", "gpt-4.1-mini")],
      messages: userSays("hello"),
      tools: [],
      toolChoice: "auto",
      parallelToolCalls: true,
    });
    const sent = fake.getRequests()[0]!.body;
    expect(Object.keys(sent).sort()).toEqual(["messages", "model", "stream", "stream_options"]);
  });

  it("calls a model without any configured key with a placeholder key (keyless local servers)", async () => {
    fake.setScript([{ respond: { content: "local answer" } }]);
    const result = await createOpenAiClient().complete({
      models: [{ name: "local", provider: "openai", model: "llama3", baseURL: fake.url }],
      messages: userSays("hello"),
    });
    expect(result.content).toBe("local answer");
    expect(fake.getRequests()).toHaveLength(1);
  });

  it("uses the default endpoint for a model without a baseURL", async () => {
    fake.setScript([{ respond: { content: "via default" } }]);
    const client = createOpenAiClient({ defaultBaseURL: fake.url, defaultApiKey: "sk-default" });
    const result = await client.complete({
      models: [{ name: "m", provider: "openai", model: "m" }],
      messages: userSays("x"),
    });
    expect(result.content).toBe("via default");
  });
});

describe("abort", () => {
  it("stops mid-stream at once, without retry, fallback or attempt log", async () => {
    fake.setScript([{ token_delay_ms: 100, respond: { content: "one two three four five six seven eight nine ten" } }]);
    const controller = new AbortController();
    const { delays, sleep } = recordingSleep();
    const rec = recorder({ signal: controller.signal, onDelta: () => controller.abort() });
    const started = performance.now();
    const error = await createOpenAiClient({ sleep })
      .complete(
        { models: [modelOn(fake, "a", "model-a"), modelOn(fake, "b", "model-b")], messages: userSays("count") },
        rec.opts,
      )
      .catch((err: unknown) => err);
    expect(isAbortError(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(600);
    expect(rec.deltas).toEqual([{ content: "one", attempt: 1 }]);
    expect(rec.attempts).toEqual([]);
    expect(delays).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.getRequests().map((r) => r.model)).toEqual(["model-a"]);
  });

  it("does not send anything when the signal is already aborted", async () => {
    fake.setScript([{ respond: { content: "never" } }]);
    const error = await createOpenAiClient()
      .complete({ models: [modelOn(fake, "a", "model-a")], messages: userSays("x") }, { signal: AbortSignal.abort() })
      .catch((err: unknown) => err);
    expect(isAbortError(error)).toBe(true);
    expect(fake.getRequests()).toEqual([]);
  });

  it("ends a backoff wait early", async () => {
    fake.setScript([{ status: 429, headers: { "retry-after": "15" } }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = performance.now();
    const error = await createOpenAiClient()
      .complete({ models: [modelOn(fake, "a", "model-a")], messages: userSays("x") }, { signal: controller.signal })
      .catch((err: unknown) => err);
    expect(isAbortError(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(fake.getRequests()).toHaveLength(1);
  });
});

describe("caller callbacks", () => {
  it("rethrows an exception from onDelta as is, without retrying", async () => {
    fake.setScript([{ respond: { content: "one two three" } }]);
    const boom = new Error("listener failed");
    const error = await createOpenAiClient()
      .complete(
        { models: [modelOn(fake, "a", "model-a")], messages: userSays("x") },
        {
          onDelta: () => {
            throw boom;
          },
        },
      )
      .catch((err: unknown) => err);
    expect(error).toBe(boom);
    expect(fake.getRequests()).toHaveLength(1);
  });

  it("announces each attempt while its request is in flight, and settles it before the first delta and the attempt log", async () => {
    fake.setScript([{ first_token_delay_ms: 80, respond: { content: "a b" } }]);
    const order: string[] = [];
    let seenByServer = -1;
    await createOpenAiClient().complete(
      { models: [modelOn(fake, "a", "model-a")], messages: userSays("x") },
      {
        onAttemptStart: async ({ attempt }) => {
          order.push(`start ${attempt}`);
          await new Promise((r) => setTimeout(r, 30));
          // The request went out before the announcement: the server has it while the announcement still works.
          seenByServer = fake.getRequests().length;
          order.push(`announced ${attempt}`);
        },
        onDelta: (d) => order.push(`delta ${d.content}`),
        onAttempt: (a) => void order.push(`log ${a.attempt}`),
      },
    );
    expect(order).toEqual(["start 1", "announced 1", "delta a", "delta  b", "log 1"]);
    expect(seenByServer).toBe(1);
  });

  it("cancels the request and fails with the announcement's error when the announcement throws", async () => {
    fake.setScript([{ first_token_delay_ms: 200, respond: { content: "never seen" } }]);
    const boom = new Error("event log unavailable");
    const deltas: string[] = [];
    const logs: unknown[] = [];
    const error = await createOpenAiClient()
      .complete(
        { models: [modelOn(fake, "a", "model-a")], messages: userSays("x") },
        {
          onAttemptStart: async () => {
            throw boom;
          },
          onDelta: (d) => void deltas.push(d.content ?? ""),
          onAttempt: (a) => void logs.push(a),
        },
      )
      .catch((err: unknown) => err);
    expect(error).toBe(boom);
    expect(deltas).toEqual([]);
    expect(logs).toEqual([]);
  });
});
