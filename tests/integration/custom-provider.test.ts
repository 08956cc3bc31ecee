import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

/** The fixture graph plus a custom provider (providers/local_echo.ts), a model on it, a prompt and an agent. */
let t: TestApp;
let agentsDir: string;

beforeAll(async () => {
  agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "custom-provider-"));
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  fs.cpSync(path.join(import.meta.dirname, "../fixtures/custom-provider"), agentsDir, { recursive: true });
  t = await startTestApp({ agentsSource: agentsDir, env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(agentsDir, { recursive: true, force: true });
});

async function run(content: string) {
  const id = (await api(t.url, "POST", "/api/threads", { agent_id: "local_chat" })).body.threadId;
  expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content })).status).toBe(202);
  const thread = await waitForThread(t.url, id);
  const messages = (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages;
  const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
  return { id, thread, messages, logs };
}

describe("a thread on a custom provider (agents/providers/local_echo.ts)", () => {
  it("streams the answer, logs the request the provider inspected and its cost", async () => {
    const { thread, messages, logs } = await run("hello there");
    expect(thread.stop_reason).toBe("response");
    expect(messages.at(-1).content).toBe("hello there ");
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ provider: "local_echo", model: "echo-1", status: "success", input_tokens: 1_000_000, output_tokens: 1_000_000 });
    // 1M input at $1 + 1M output at $2.
    expect(logs[0].cost_usd).toBeCloseTo(3);
    expect(logs[0].request).toMatchObject({ model: "echo-1", messages: 2, key: "none" });
  });

  it("runs a tool the provider called (its call streamed in fragments), then answers with the result", async () => {
    const { messages, logs } = await run("please use echo: ping");
    const call = messages.find((m: any) => m.role === "assistant" && m.tool_calls?.length);
    expect(call.tool_calls[0]).toMatchObject({ id: "call_local_1", function: { name: "echo", arguments: '{"text":"ping"}' } });
    expect(messages.find((m: any) => m.role === "tool").content).toBe("echo: ping");
    expect(messages.at(-1).content).toBe("tool said: echo: ping");
    expect(logs.map((l: any) => l.status)).toEqual(["success", "success"]);
    expect(logs[1].response.reasoning).toBe("the tool answered");
    expect(logs[1].response.reasoning_details).toEqual([{ type: "text", text: "the tool answered", signature: "sig-1", format: "local-echo-v1" }]);
  });

  it("retries a ProviderError marked retryable (rate_limit), after its retryAfterMs", async () => {
    const { messages, logs } = await run("rate limit me");
    expect(messages.at(-1).content).toBe("rate limit me ");
    expect(logs.map((l: any) => l.status)).toEqual(["error", "success"]);
    expect(logs[0].error).toMatch(/^429 slow down/);
  });
});
