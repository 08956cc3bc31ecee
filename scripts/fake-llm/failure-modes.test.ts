import OpenAI, { APIConnectionError, APIError, InternalServerError, RateLimitError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "./server";

let fake: FakeLlm;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeLlm();
  client = new OpenAI({ baseURL: fake.url, apiKey: "test", maxRetries: 0 });
});
afterAll(() => fake.close());

const messages = [{ role: "user" as const, content: "hello" }];

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the request to fail");
}

describe("scripted HTTP errors", () => {
  it("429 with a retry-after header the SDK exposes", async () => {
    fake.setScript([{ status: 429, headers: { "retry-after": "1" } }]);
    const err = await rejection(client.chat.completions.create({ model: "m", messages }));
    expect(err).toBeInstanceOf(RateLimitError);
    const apiErr = err as RateLimitError;
    expect(apiErr.status).toBe(429);
    expect(apiErr.headers.get("retry-after")).toBe("1");
    expect(apiErr.code).toBe("rate_limit_exceeded");
    expect(apiErr.type).toBe("rate_limit_exceeded");
  });

  it("500 with an OpenAI-style error body, also for streaming requests", async () => {
    fake.setScript([{ status: 500, error: { message: "upstream exploded", type: "server_error", code: "boom" } }]);
    const err = await rejection(client.chat.completions.create({ model: "m", messages, stream: true }));
    expect(err).toBeInstanceOf(InternalServerError);
    const apiErr = err as InternalServerError;
    expect(apiErr.status).toBe(500);
    expect(apiErr.message).toContain("upstream exploded");
    expect(apiErr.code).toBe("boom");
  });

  it("an error without a status answers 500", async () => {
    fake.setScript([{ error: "scripted failure" }]);
    const err = await rejection(client.chat.completions.create({ model: "m", messages }));
    expect((err as APIError).status).toBe(500);
    expect((err as APIError).message).toContain("scripted failure");
  });

  it("a failing rule with times lets the SDK's retry reach the next rule, honouring retry-after", async () => {
    fake.setScript([{ times: 1, status: 429, headers: { "retry-after": "0" } }, { respond: { content: "recovered" } }]);
    fake.clearRequests();
    const retrying = new OpenAI({ baseURL: fake.url, apiKey: "test", maxRetries: 1 });
    const completion = await retrying.chat.completions.create({ model: "m", messages });
    expect(completion.choices[0]?.message.content).toBe("recovered");
    expect(fake.getRequests().map((r) => r.matched)).toEqual([0, 1]);
  });
});

describe("delays", () => {
  it("delay_ms holds the answer back", async () => {
    fake.setScript([{ delay_ms: 300, respond: { content: "late" } }]);
    const started = performance.now();
    const completion = await client.chat.completions.create({ model: "m", messages });
    expect(completion.choices[0]?.message.content).toBe("late");
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("first_token_delay_ms sends headers first and holds the first chunk back", async () => {
    fake.setScript([{ first_token_delay_ms: 600, token_delay_ms: 20, respond: { content: "one two three" } }]);
    const started = performance.now();
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
    const connected = performance.now() - started;
    let firstChunkAt: number | null = null;
    let text = "";
    for await (const chunk of stream) {
      firstChunkAt ??= performance.now() - started;
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(text).toBe("one two three");
    expect(firstChunkAt).not.toBeNull();
    // The SDK hands back the stream once the headers arrive; the first chunk comes after the scripted delay.
    expect((firstChunkAt ?? 0) - connected).toBeGreaterThanOrEqual(300);
    expect(performance.now() - started).toBeGreaterThanOrEqual(600 + 3 * 20 - 10);
  });
});

describe("dropped connections", () => {
  it("cut_after_chunks destroys a stream midway and the SDK throws", async () => {
    fake.setScript([{ cut_after_chunks: 2, respond: { content: "this stream will never finish properly" } }]);
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
    const received: string[] = [];
    const err = await rejection(
      (async () => {
        for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? "");
      })(),
    );
    expect(err).toBeInstanceOf(Error);
    expect(received).toEqual(["this", " stream"]);
  });

  it("the stream helper rejects on a cut stream too", async () => {
    fake.setScript([
      { cut_after_chunks: 3, respond: { tool_calls: [{ name: "t", arguments: { long: "x".repeat(80) } }] } },
    ]);
    const err = await rejection(client.chat.completions.stream({ model: "m", messages }).finalChatCompletion());
    expect(err).toBeInstanceOf(Error);
  });

  it("cut_after_chunks on a non-streaming request drops the connection before answering", async () => {
    fake.setScript([{ cut_after_chunks: 0, respond: { content: "never sent" } }]);
    const err = await rejection(client.chat.completions.create({ model: "m", messages }));
    expect(err).toBeInstanceOf(APIConnectionError);
  });

  it("a client that aborts mid-stream leaves the server answering later requests", async () => {
    fake.setScript([{ token_delay_ms: 50, respond: { content: "a b c d e f g h i j k l" } }]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: "m", messages, stream: true },
      { signal: controller.signal },
    );
    let pieces = 0;
    try {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) pieces++;
        controller.abort();
      }
    } catch {
      // the SDK may report the abort as an error; either way the stream stops
    }
    expect(pieces).toBe(1);
    fake.setScript([{ respond: { content: "still here" } }]);
    const completion = await client.chat.completions.create({ model: "m", messages });
    expect(completion.choices[0]?.message.content).toBe("still here");
  });
});
