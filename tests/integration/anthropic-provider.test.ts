import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLlm } from "../../scripts/fake-llm/server";
import { startProviderApp, type ProviderApp } from "../helpers/provider-app";

/** The built-in `anthropic` provider: the real @anthropic-ai/sdk against the scripted server's /v1/messages. */
let p: ProviderApp;
let fake: FakeLlm;

beforeAll(async () => {
  p = await startProviderApp("anthropic-provider", "claude_chat", (url) => ({ OPENAI_BASE_URL: url, ANTHROPIC_BASE_URL: url.replace(/\/v1$/, ""), ANTHROPIC_API_KEY: "sk-ant-canary-123" }));
  ({ fake } = p);
});
afterAll(async () => p?.close());
beforeEach(() => fake.clearRequests());
const run = (content: string) => p.run(content);

describe("a thread on the anthropic provider", () => {
  it("calls a tool, streams signed thinking, sends the thinking block back with the tool result, and logs the cost", async () => {
    fake.setScript([
      { when: { last_contains: "weather" }, times: 1, respond: { reasoning: "I should call echo", tool_calls: [{ name: "echo", arguments: { text: "sunny" } }] } },
      { when: { last_role: "tool" }, times: 1, respond: { reasoning: "done thinking", content: "It is sunny", usage: { prompt_tokens: 1000, completion_tokens: 200 } } },
    ]);
    const { thread, messages, logs } = await run("what is the weather?");
    expect(thread.stop_reason).toBe("response");
    expect(messages.at(-1).content).toBe("It is sunny");
    expect(messages.find((m: any) => m.role === "tool").content).toBe("echo: sunny");

    const [first, second] = fake.getRequests();
    expect(first!.headers.authorization).toBe(true);
    expect(first!.body).toMatchObject({
      model: "claude-fake-1",
      max_tokens: 4096,
      system: expect.stringContaining("You are careful."),
      thinking: { type: "enabled", budget_tokens: 2048 },
      tools: [expect.objectContaining({ name: "echo", input_schema: expect.objectContaining({ type: "object" }) })],
      stream: true,
    });
    // The signed thinking block comes back first on the assistant message, then the tool call, then its result.
    const sent = (second!.body.messages as any[]).slice(-2);
    expect(sent[0].role).toBe("assistant");
    expect(sent[0].content[0]).toEqual({ type: "thinking", thinking: "I should call echo", signature: "fake-signature-1" });
    expect(sent[0].content[1]).toMatchObject({ type: "tool_use", name: "echo", input: { text: "sunny" } });
    expect(sent[1]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: sent[0].content[1].id, content: "echo: sunny" }] });

    expect(logs.map((l: any) => `${l.provider}:${l.status}`)).toEqual(["anthropic:success", "anthropic:success"]);
    expect(logs[1]).toMatchObject({ input_tokens: 1000, output_tokens: 200 });
    expect(logs[1].cost_usd).toBeCloseTo((1000 * 3 + 200 * 15) / 1e6, 9);
    expect(logs[1].response.reasoning).toBe("done thinking");
    expect(logs[1].response.reasoning_details).toEqual([{ type: "text", text: "done thinking", signature: "fake-signature-2", format: "anthropic-claude-v1" }]);
    expect(messages.at(-1).reasoning_content ?? messages.at(-1).reasoning).toBe("done thinking");
  });

  it("retries a 429 after its Retry-After, a 529 overload and a cut stream, then answers", async () => {
    fake.setScript([
      { times: 1, status: 429, headers: { "retry-after": "1" }, error: "slow down" },
      { times: 1, status: 529, error: "overloaded" },
      { times: 1, cut_after_chunks: 3, respond: { content: "this answer will be cut in the middle" } },
      { respond: { content: "complete answer" } },
    ]);
    const started = Date.now();
    const { messages, logs } = await run("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(messages.at(-1).content).toBe("complete answer");
    expect(logs.map((l: any) => l.status)).toEqual(["error", "error", "error", "success"]);
    expect(logs[0].error).toMatch(/^429 .*slow down/);
    expect(logs[1].error).toMatch(/^529 .*overloaded/);
    expect(logs[2].error).toMatch(/stream|connection/i);
  });

  it("a 401 names the key variable and moves on without retrying", async () => {
    fake.setScript([{ status: 401, error: "invalid x-api-key" }]);
    const { logs } = await run("hi");
    // Only the 401 counts (a pooled connection the previous test's cut stream closed may fail first, and is retried).
    const unauthorized = logs.filter((l: any) => /401/.test(l.error ?? ""));
    expect(unauthorized).toHaveLength(1);
    expect(unauthorized[0].error).toContain("ANTHROPIC_API_KEY");
    expect(logs.at(-1)).toBe(unauthorized[0]);
  });
});
