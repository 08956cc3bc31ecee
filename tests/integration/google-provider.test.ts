import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeLlm } from "../../scripts/fake-llm/server";
import { api, waitForThread, type TestApp } from "../helpers/test-app";
import { startProviderApp, type ProviderApp } from "../helpers/provider-app";

/** The built-in `google` provider: the real @google/genai SDK against the scripted server's streamGenerateContent. */
let p: ProviderApp;
let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  p = await startProviderApp("google-provider", "gemini_chat", (url) => ({ OPENAI_BASE_URL: url, GEMINI_BASE_URL: url.replace(/\/v1$/, ""), GEMINI_API_KEY: "gm-canary-456" }));
  ({ fake, t } = p);
});
afterAll(async () => p?.close());
beforeEach(() => fake.clearRequests());
const run = (content: string) => p.run(content);

describe("a thread on the google provider", () => {
  it("calls a tool, streams thoughts, sends the thought signature back on the function call, and logs the cost", async () => {
    fake.setScript([
      { when: { last_contains: "weather" }, times: 1, respond: { reasoning: "I should call echo", tool_calls: [{ name: "echo", arguments: { text: "sunny" } }] } },
      { when: { last_role: "tool" }, times: 1, respond: { reasoning: "done thinking", content: "It is sunny", usage: { prompt_tokens: 1000, completion_tokens: 200, reasoning_tokens: 50 } } },
    ]);
    const { thread, messages, logs } = await run("what is the weather?");
    expect(thread.stop_reason).toBe("response");
    expect(messages.at(-1).content).toBe("It is sunny");
    const toolMessage = messages.find((m: any) => m.role === "tool");
    expect(toolMessage.content).toBe("echo: sunny");

    const [first, second] = fake.getRequests();
    expect(first!.headers.authorization).toBe(true);
    expect(first!.body).toMatchObject({
      model: "gemini-fake-1",
      systemInstruction: { parts: [{ text: expect.stringContaining("You are brief.") }] },
      generationConfig: { maxOutputTokens: 2048, thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
      tools: [{ functionDeclarations: [expect.objectContaining({ name: "echo", parametersJsonSchema: expect.objectContaining({ type: "object" }) })] }],
    });
    // The model turn comes back with the signature on its function call, then the result as a functionResponse.
    const contents = second!.body.contents as any[];
    const modelTurn = contents.at(-2);
    expect(modelTurn.role).toBe("model");
    const signature = logs[0].response.reasoning_details[0];
    expect(signature).toEqual({ type: "encrypted", data: expect.stringMatching(/^fake-thought-signature-\d+$/), format: "google-gemini-v1", id: toolMessage.tool_call_id });
    expect(modelTurn.parts).toEqual([
      { functionCall: { id: toolMessage.tool_call_id, name: "echo", args: { text: "sunny" } }, thoughtSignature: signature.data },
    ]);
    expect(contents.at(-1)).toEqual({
      role: "user",
      parts: [{ functionResponse: { id: toolMessage.tool_call_id, name: "echo", response: { result: "echo: sunny" } } }],
    });

    expect(logs.map((l: any) => `${l.provider}:${l.status}`)).toEqual(["google:success", "google:success"]);
    expect(logs[1]).toMatchObject({ input_tokens: 1000, output_tokens: 200 });
    expect(logs[1].cost_usd).toBeCloseTo((1000 * 1.25 + 200 * 10) / 1e6, 9);
    expect(logs[1].response.reasoning).toBe("done thinking");
    expect(logs[1].response.reasoning_details).toEqual([{ type: "encrypted", data: expect.stringMatching(/^fake-thought-signature-\d+$/), format: "google-gemini-v1" }]);
    expect(messages.at(-1).reasoning_content ?? messages.at(-1).reasoning).toBe("done thinking");
  });

  it("sends a text part's signature back on the next turn", async () => {
    fake.setScript([{ times: 1, respond: { reasoning: "hmm", content: "First answer" } }, { respond: { content: "Second answer" } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "gemini_chat" })).body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "one" });
    await waitForThread(t.url, id);
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "two" });
    for (let i = 0; i < 150 && fake.getRequests().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    await waitForThread(t.url, id);
    const contents = fake.getRequests()[1]!.body.contents as any[];
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    const signature = logs[0].response.reasoning_details[0].data;
    expect(signature).toMatch(/^fake-thought-signature-\d+$/);
    expect(contents.at(-2)).toEqual({ role: "model", parts: [{ text: "First answer", thoughtSignature: signature }] });
    expect(contents.at(-1)).toEqual({ role: "user", parts: [{ text: "two" }] });
  });

  it("retries a 429 after its retry delay, a 503 and a cut stream, then answers", async () => {
    fake.setScript([
      { times: 1, status: 429, headers: { "retry-after": "1" }, error: "quota exceeded" },
      { times: 1, status: 503, error: "model overloaded" },
      { times: 1, cut_after_chunks: 2, respond: { content: "this answer will be cut in the middle" } },
      { respond: { content: "complete answer" } },
    ]);
    const started = Date.now();
    const { messages, logs } = await run("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(messages.at(-1).content).toBe("complete answer");
    expect(logs.map((l: any) => l.status)).toEqual(["error", "error", "error", "success"]);
    expect(logs[0].error).toMatch(/^429 quota exceeded/);
    expect(logs[1].error).toMatch(/^503 model overloaded/);
    expect(logs[2].error).toMatch(/stream|connection/i);
  });

  it("a 403 names the key variable and moves on without retrying", async () => {
    fake.setScript([{ status: 403, error: "API key not valid" }]);
    const { logs } = await run("hi");
    const denied = logs.filter((l: any) => /403/.test(l.error ?? ""));
    expect(denied).toHaveLength(1);
    expect(denied[0].error).toContain("GEMINI_API_KEY");
    expect(logs.at(-1)).toBe(denied[0]);
  });
});
