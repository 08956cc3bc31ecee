/** Retries, backoff, timeouts and fallbacks of the OpenAI-compatible client against the scripted server over HTTP. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { createOpenAiClient } from "./llm-client";
import { modelOn, recorder, recordingSleep, userSays } from "./test-support";
import { LlmTransportError } from "./types";

let fake: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());
beforeEach(() => fake.clearRequests());

const half = () => 0.5;
const sentModels = () => fake.getRequests().map((r) => r.model);

async function failure(promise: Promise<unknown>): Promise<LlmTransportError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof LlmTransportError)) throw new Error(`expected an LlmTransportError, got ${String(err)}`);
  return err;
}

describe("retries on the same model", () => {
  it("waits as long as Retry-After says after a 429, then succeeds, logging both attempts", async () => {
    fake.setScript([{ times: 1, status: 429, headers: { "retry-after": "1" } }, { respond: { content: "recovered" } }]);
    const { delays, sleep } = recordingSleep();
    const rec = recorder();
    const result = await createOpenAiClient({ sleep, random: half }).complete(
      { models: [modelOn(fake, "fast", "gpt-4.1-mini")], messages: userSays("hi") },
      rec.opts,
    );
    expect(result.content).toBe("recovered");
    expect(delays).toEqual([1000]);
    expect(rec.attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, "error"],
      [2, "success"],
    ]);
    expect(rec.attempts[0]?.error).toMatch(/^429 /);
    expect(rec.attempts[0]?.response).toBeNull();
    expect(result.attempts).toHaveLength(2);
  });

  it("caps a long Retry-After at maxDelayMs", async () => {
    fake.setScript([{ times: 1, status: 429, headers: { "retry-after": "3600" } }, { respond: { content: "ok" } }]);
    const { delays, sleep } = recordingSleep();
    await createOpenAiClient({ sleep, maxDelayMs: 5_000 }).complete({
      models: [modelOn(fake, "fast", "gpt-4.1-mini")],
      messages: userSays("hi"),
    });
    expect(delays).toEqual([5_000]);
  });

  it("retries a 500 with exponential backoff", async () => {
    fake.setScript([{ times: 2, status: 500, error: "Internal Server Error" }, { respond: { content: "third time" } }]);
    const { delays, sleep } = recordingSleep();
    const rec = recorder();
    const result = await createOpenAiClient({ sleep, random: () => 0.999999, baseDelayMs: 100 }).complete(
      { models: [modelOn(fake, "fast", "gpt-4.1-mini")], messages: userSays("hi") },
      rec.opts,
    );
    expect(result.content).toBe("third time");
    expect(delays).toEqual([100, 200]);
    expect(rec.attempts.map((a) => a.error)).toEqual(["500 Internal Server Error", "500 Internal Server Error", null]);
  });

  it("retries a stream cut mid-way; the failed attempt's deltas carry its attempt number", async () => {
    fake.setScript([
      { times: 1, cut_after_chunks: 3, respond: { content: "alpha beta gamma delta epsilon" } },
      { respond: { content: "alpha beta gamma delta epsilon" } },
    ]);
    const { delays, sleep } = recordingSleep();
    const rec = recorder();
    const result = await createOpenAiClient({ sleep }).complete(
      { models: [modelOn(fake, "fast", "gpt-4.1-mini")], messages: userSays("hi") },
      rec.opts,
    );
    expect(result.content).toBe("alpha beta gamma delta epsilon");
    expect(rec.textOf(1)).toBe("alpha beta gamma");
    expect(rec.textOf(2)).toBe("alpha beta gamma delta epsilon");
    expect(delays).toHaveLength(1);
    expect(rec.attempts[0]).toMatchObject({ status: "error", response: null });
    expect(rec.attempts[0]?.error).toMatch(/^stream dropped after 3 chunks without a finish_reason/);
    expect(rec.attempts[0]?.ttftMs).not.toBeNull();
  });

  it("treats a silent stream as a timeout and retries", async () => {
    fake.setScript([
      { times: 1, first_token_delay_ms: 2_000, respond: { content: "too late" } },
      { times: 1, delay_ms: 2_000, respond: { content: "too late" } },
      { respond: { content: "in time" } },
    ]);
    const { sleep } = recordingSleep();
    const rec = recorder();
    const started = performance.now();
    const result = await createOpenAiClient({ sleep, timeoutMs: 200 }).complete(
      { models: [modelOn(fake, "fast", "gpt-4.1-mini")], messages: userSays("hi") },
      rec.opts,
    );
    expect(result.content).toBe("in time");
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(rec.attempts.map((a) => a.status)).toEqual(["error", "error", "success"]);
    expect(rec.attempts[0]?.error).toMatch(/timed out/);
    expect(rec.attempts[1]?.error).toMatch(/time/i);
  });

  it("measures the timeout from the last chunk: a slow but steady stream is not cut", async () => {
    fake.setScript([{ token_delay_ms: 90, respond: { content: "one two three four five six seven eight" } }]);
    const rec = recorder();
    const started = performance.now();
    const result = await createOpenAiClient({ timeoutMs: 200 }).complete(
      { models: [modelOn(fake, "fast", "gpt-4.1-mini")], messages: userSays("hi") },
      rec.opts,
    );
    expect(result.content).toBe("one two three four five six seven eight");
    expect(performance.now() - started).toBeGreaterThan(400);
    expect(rec.attempts.map((a) => a.status)).toEqual(["success"]);
  });

  it("really waits between attempts with the default sleep", async () => {
    fake.setScript([{ times: 1, status: 503, headers: { "retry-after-ms": "150" } }, { respond: { content: "ok" } }]);
    const started = performance.now();
    const result = await createOpenAiClient().complete({
      models: [modelOn(fake, "fast", "gpt-4.1-mini")],
      messages: userSays("hi"),
    });
    expect(result.content).toBe("ok");
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });
});

describe("fallbacks", () => {
  const careful = () => modelOn(fake, "careful", "gpt-4.1");
  const fast = () => modelOn(fake, "fast", "gpt-4.1-mini");

  it("moves to the fallback once the retries on the first model are used up", async () => {
    fake.setScript([
      { when: { model: "gpt-4.1" }, status: 500, error: "Internal Server Error" },
      { when: { model: "gpt-4.1-mini" }, respond: { content: "from the fallback" } },
    ]);
    const { delays, sleep } = recordingSleep();
    const rec = recorder();
    const result = await createOpenAiClient({ sleep, maxRetries: 2 }).complete(
      { models: [careful(), fast()], messages: userSays("hi") },
      rec.opts,
    );
    expect(result.content).toBe("from the fallback");
    expect(result.model.name).toBe("fast");
    expect(sentModels()).toEqual(["gpt-4.1", "gpt-4.1", "gpt-4.1", "gpt-4.1-mini"]);
    expect(delays).toHaveLength(2);
    expect(rec.attempts.map((a) => [a.model.name, a.attempt, a.status])).toEqual([
      ["careful", 1, "error"],
      ["careful", 2, "error"],
      ["careful", 3, "error"],
      ["fast", 4, "success"],
    ]);
  });

  it("skips to the fallback on a 401 without retrying, naming the variable to set", async () => {
    fake.setScript([
      { when: { model: "gpt-4.1" }, status: 401, error: "invalid api key" },
      { when: { model: "gpt-4.1-mini" }, respond: { content: "fallback answer" } },
    ]);
    const { delays, sleep } = recordingSleep();
    const rec = recorder();
    const keyless = { ...careful(), apiKey: undefined, apiKeyEnv: "ANTHROPIC_API_KEY" };
    const result = await createOpenAiClient({ sleep, defaultApiKey: "sk-default" }).complete(
      { models: [keyless, fast()], messages: userSays("hi") },
      rec.opts,
    );
    expect(result.content).toBe("fallback answer");
    expect(sentModels()).toEqual(["gpt-4.1", "gpt-4.1-mini"]);
    expect(delays).toEqual([]);
    expect(rec.attempts[0]?.error).toBe(
      '401 invalid api key (no API key is set for model "careful": set ANTHROPIC_API_KEY, ' +
        "or name another variable in `apiKeyEnv` of agents/models/careful.ts)",
    );
  });

  it("throws a clear LlmTransportError naming every model when all fail", async () => {
    fake.setScript([
      { when: { model: "gpt-4.1" }, status: 500, error: "Internal Server Error" },
      { when: { model: "gpt-4.1-mini" }, status: 401, error: "invalid api key" },
    ]);
    const { sleep } = recordingSleep();
    const rec = recorder();
    const err = await failure(
      createOpenAiClient({ sleep }).complete({ models: [careful(), fast()], messages: userSays("hi") }, rec.opts),
    );
    expect(err.message).toBe(
      "All models failed: careful (gpt-4.1): 500 Internal Server Error after 4 attempts; " +
        "fast (gpt-4.1-mini): 401 invalid api key (check the API key in OPENAI_API_KEY, " +
        "or name another variable in `apiKeyEnv` of agents/models/fast.ts)",
    );
    expect(err.code).toBe("LLM_TRANSPORT_ERROR");
    expect(err.retryable).toBe(true);
    expect(err.attempts).toHaveLength(5);
    expect(rec.attempts).toEqual(err.attempts);
  });

  it("marks the failure not retryable when every model refused the request", async () => {
    fake.setScript([{ status: 400, error: "messages: bad shape" }]);
    const { delays, sleep } = recordingSleep();
    const err = await failure(
      createOpenAiClient({ sleep }).complete({ models: [careful(), fast()], messages: userSays("hi") }),
    );
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      "All models failed: careful (gpt-4.1): 400 messages: bad shape; fast (gpt-4.1-mini): 400 messages: bad shape",
    );
    expect(delays).toEqual([]);
  });

  it("reports an unreachable endpoint with a hint, after retrying it", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { delays, sleep } = recordingSleep();
    const down = { name: "local", provider: "openai", model: "llama3", baseURL: `http://127.0.0.1:${port}/v1` };
    const err = await failure(
      createOpenAiClient({ sleep, maxRetries: 1 }).complete({ models: [down], messages: userSays("hi") }),
    );
    expect(delays).toHaveLength(1);
    expect(err.message).toBe(
      `All models failed: local (llama3): connection error: connect ECONNREFUSED 127.0.0.1:${port} ` +
        `(is http://127.0.0.1:${port}/v1 reachable? Check \`baseURL\` in agents/models/local.ts, or OPENAI_BASE_URL) ` +
        "after 2 attempts",
    );
  });

  it("fails clearly when the request names no model", async () => {
    const err = await failure(createOpenAiClient().complete({ models: [], messages: userSays("hi") }));
    expect(err.message).toMatch(/names no model/);
  });
});
