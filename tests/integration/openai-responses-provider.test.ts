import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLlm } from "../../scripts/fake-llm/server";
import { startProviderApp, type ProviderApp } from "../helpers/provider-app";

/** The built-in `openai-responses` provider: the real `openai` SDK's `responses.create` against the scripted /v1/responses. */
let p: ProviderApp;
let fake: FakeLlm;

beforeAll(async () => {
  p = await startProviderApp("openai-responses-provider", "responses_chat", (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: "sk-canary-789" }));
  ({ fake } = p);
});
afterAll(async () => p?.close());
beforeEach(() => fake.clearRequests());
const run = (content: string) => p.run(content);

describe("a thread on the openai-responses provider", () => {
  it("calls a tool, streams the reasoning summary, sends the encrypted reasoning item back, and logs the cost", async () => {
    fake.setScript([
      { when: { last_contains: "weather" }, times: 1, respond: { reasoning: "I should call echo", tool_calls: [{ name: "echo", arguments: { text: "sunny" } }] } },
      { when: { last_role: "tool" }, times: 1, respond: { reasoning: "done thinking", content: "It is sunny", usage: { prompt_tokens: 1000, completion_tokens: 200, cached_tokens: 400 } } },
    ]);
    const { thread, messages, logs } = await run("what is the weather?");
    expect(thread.stop_reason).toBe("response");
    expect(messages.at(-1).content).toBe("It is sunny");
    const toolMessage = messages.find((m: any) => m.role === "tool");
    expect(toolMessage.content).toBe("echo: sunny");

    const [first, second] = fake.getRequests();
    expect(first!.headers.authorization).toBe(true);
    expect(first!.body).toMatchObject({
      model: "o-fake-1",
      store: false,
      stream: true,
      reasoning: { effort: "medium", summary: "auto" },
      include: ["reasoning.encrypted_content"],
      tools: [expect.objectContaining({ type: "function", name: "echo", parameters: expect.objectContaining({ type: "object" }) })],
    });
    expect((first!.body.input as any[])[0]).toEqual({ role: "system", content: expect.stringContaining("You are exact.") });

    // The reasoning item comes back first, with its encrypted content, then the call and its output.
    const detail = logs[0].response.reasoning_details[0];
    expect(detail).toEqual({ type: "encrypted", id: expect.stringMatching(/^rs_fake_/), text: "I should call echo", data: expect.stringMatching(/^fake-encrypted-/), format: "openai-responses-v1" });
    const input = second!.body.input as any[];
    expect(input.slice(-3)).toEqual([
      { type: "reasoning", id: detail.id, summary: [{ type: "summary_text", text: "I should call echo" }], encrypted_content: detail.data },
      { type: "function_call", call_id: toolMessage.tool_call_id, name: "echo", arguments: JSON.stringify({ text: "sunny" }) },
      { type: "function_call_output", call_id: toolMessage.tool_call_id, output: "echo: sunny" },
    ]);

    expect(logs.map((l: any) => `${l.provider}:${l.status}`)).toEqual(["openai-responses:success", "openai-responses:success"]);
    expect(logs[1]).toMatchObject({ input_tokens: 1000, output_tokens: 200, cached_tokens: 400 });
    expect(logs[1].cost_usd).toBeCloseTo((600 * 2 + 400 * 0.5 + 200 * 8) / 1e6, 9);
    expect(logs[1].response.reasoning).toBe("done thinking");
    expect(messages.at(-1).reasoning_content ?? messages.at(-1).reasoning).toBe("done thinking");
  });

  it("retries a 429 after its Retry-After, a 500 and a cut stream, then answers", async () => {
    fake.setScript([
      { times: 1, status: 429, headers: { "retry-after": "1" }, error: "slow down" },
      { times: 1, status: 500, error: "server broke" },
      { times: 1, cut_after_chunks: 3, respond: { content: "this answer will be cut in the middle" } },
      { respond: { content: "complete answer" } },
    ]);
    const started = Date.now();
    const { messages, logs } = await run("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(messages.at(-1).content).toBe("complete answer");
    expect(logs.map((l: any) => l.status)).toEqual(["error", "error", "error", "success"]);
    expect(logs[0].error).toMatch(/^429 .*slow down/);
    expect(logs[1].error).toMatch(/^500 .*server broke/);
    expect(logs[2].error).toMatch(/stream|connection/i);
  });
});
