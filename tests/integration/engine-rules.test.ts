import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    agentsSource: fixtureAgents,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", MAX_TOTAL_STEPS: "4", LLM_RETRY_BASE_DELAY_MS: "20", LLM_MAX_RETRIES: "2" },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

async function run(agent: string, message: string, init?: any[]) {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: agent, ...(init ? { initial_messages: init } : {}) });
  if (!init) await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: message });
  const thread = await waitForThread(t.url, body.threadId);
  const messages = (await api(t.url, "GET", `/api/threads/${body.threadId}/messages?includeSilent=true`)).body.messages;
  return { thread, messages, id: body.threadId as string };
}

const loop = { respond: { tool_calls: [{ name: "echo", arguments: { text: "again" } }] } };

describe("stop rules over HTTP, each with its reason code", () => {
  it("stop_tool: the stop tool ends the turn and its response property becomes the assistant content", async () => {
    fake.setScript([{ respond: { content: "let me stop", tool_calls: [{ name: "echo", arguments: { text: "Final words." } }] } }]);
    const { thread, messages } = await run("stopper", "go");
    expect(thread.stop_reason).toBe("stop_tool");
    expect(messages.find((m: any) => m.role === "assistant").content).toBe("Final words.");
  });

  it("max_steps: the side's step limit ends its turn", async () => {
    fake.setScript([loop]);
    const { thread } = await run("limited", "loop forever");
    expect(thread.stop_reason).toBe("max_steps");
    expect(fake.getRequests()).toHaveLength(2);
  });

  it("max_total_steps: the global ceiling per activation stops the thread", async () => {
    fake.setScript([loop]);
    const { thread } = await run("chat", "loop forever");
    expect(thread.stop_reason).toBe("max_total_steps");
    expect(fake.getRequests()).toHaveLength(4);
  });

  it("session_fail and max_session_turns end a dual_ai session", async () => {
    fake.setScript([{ when: { system_contains: "worker" }, respond: { tool_calls: [{ name: "give_up", arguments: { reason: "impossible" } }] } }]);
    const failed = await run("duo", "", [{ role: "user", content: "do it" }]);
    expect(failed.thread.stop_reason).toBe("session_fail");
    expect(failed.thread.session).toEqual({ ended: true, reason: "session_fail" });

    fake.setScript([{ respond: { content: "I have an opinion" } }]);
    const capped = await run("duo", "", [{ role: "user", content: "chat" }]);
    expect(capped.thread.stop_reason).toBe("max_session_turns");
    expect(capped.thread.turns).toEqual({ a: 2, b: 2 });
    expect(fake.getRequests()).toHaveLength(5);
  });

  it("error: when every model fails, the thread stops with reason `error` and the failure is logged", async () => {
    fake.setScript([{ status: 400, error: "bad request for this model" }]);
    const { thread, id } = await run("chat", "hello");
    expect(thread.stop_reason).toBe("error");
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs.map((l: any) => [l.model_name, l.status])).toEqual([["primary", "error"], ["backup", "error"]]);
  });
});

describe("LLM request logs", () => {
  it("read back over REST exactly as sent, while the database keeps each request as a delta against the previous one", async () => {
    fake.setScript([loop]);
    const { thread, id } = await run("chat", "loop forever");
    expect(thread.stop_reason).toBe("max_total_steps");
    const sent = fake.getRequests().map((r) => r.body as { messages: unknown[] });
    expect(sent).toHaveLength(4);
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs.map((l: any) => l.request)).toEqual(sent);
    // A page of one row: the request is still whole (its bases are read from outside the page).
    const last = (await api(t.url, "GET", `/api/threads/${id}/logs?limit=1&offset=3`)).body.logs;
    expect(last[0].request).toEqual(sent[3]);
    const stored = await t.app.persistence.llmLogs.storedRequests(logs.map((l: any) => l.id));
    const byId = new Map(stored.map((r) => [r.id, r.request as Record<string, any>]));
    expect(byId.get(logs[0].id)).not.toHaveProperty("$delta");
    for (let i = 1; i < 4; i++) {
      const row = byId.get(logs[i].id)!;
      expect(row.$delta).toMatchObject({ base: logs[i - 1].id, keep: sent[i - 1]!.messages.length });
      expect(row.messages).toEqual(sent[i]!.messages.slice(sent[i - 1]!.messages.length));
      expect(row).not.toHaveProperty("tools");
    }
  });
});

describe("the LLM client through the runtime: retries, then fallbacks", () => {
  it("retries after a 429 honouring Retry-After, then succeeds", async () => {
    fake.setScript([
      { times: 1, status: 429, headers: { "retry-after": "1" }, error: "slow down" },
      { respond: { content: "after the wait" } },
    ]);
    const started = Date.now();
    const { thread, id, messages } = await run("chat", "hi");
    expect(thread.stop_reason).toBe("response");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(messages.at(-1).content).toBe("after the wait");
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs.map((l: any) => l.status)).toEqual(["error", "success"]);
    expect(logs[0].error).toMatch(/429/);
  });

  it("retries after a 500 and after a stream cut mid-way", async () => {
    fake.setScript([
      { times: 1, status: 500, error: "internal" },
      { times: 1, cut_after_chunks: 2, respond: { content: "this stream will be cut somewhere in the middle" } },
      { respond: { content: "complete answer" } },
    ]);
    const { thread, id, messages } = await run("chat", "hi");
    expect(thread.stop_reason).toBe("response");
    expect(messages.at(-1).content).toBe("complete answer");
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs.map((l: any) => l.status)).toEqual(["error", "error", "success"]);
  });

  it("falls back to the next model after the retries are used up", async () => {
    fake.setScript([
      { when: { model: "primary-model" }, status: 503, error: "overloaded" },
      { when: { model: "backup-model" }, respond: { content: "from the backup" } },
    ]);
    const { messages, id } = await run("chat", "hi");
    expect(messages.at(-1).content).toBe("from the backup");
    expect(messages.at(-1).metadata.model).toBe("backup");
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs.map((l: any) => `${l.model_name}:${l.status}`)).toEqual(["primary:error", "primary:error", "primary:error", "backup:success"]);
  });

  it("malformed tool-call JSON from the model becomes a tool error the model sees", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: '{"text": "unterminated' }] } },
      { respond: { content: "I will fix my arguments" } },
    ]);
    const { messages } = await run("chat", "hi");
    const tool = messages.find((m: any) => m.role === "tool");
    expect(tool.tool_status).toBe("error");
    expect(tool.content).toMatch(/not valid JSON/);
    const second = fake.getRequests()[1]!;
    expect(second.messages.at(-1)).toMatchObject({ role: "tool", content: tool.content });
  });
});

describe("subprompts and handoffs over HTTP", () => {
  it("a subprompt runs one step on its own model with the mapped message; includeToolCalls false hides its calls", async () => {
    fake.setScript([
      { when: { system_contains: "front desk", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "summarize", arguments: { text: "long text here" } }] } },
      { when: { system_contains: "summarize" }, respond: { content: "short", tool_calls: [{ name: "echo", arguments: { text: "x" } }] } },
      { when: { system_contains: "front desk" }, respond: { content: "Summary delivered" } },
    ]);
    const { messages } = await run("front", "summarize please");
    const sub = fake.getRequests().find((r) => r.model === "backup-model")!;
    expect(sub.messages).toEqual([
      { role: "system", content: "You summarize texts." },
      { role: "user", content: "long text here" },
    ]);
    expect(messages.find((m: any) => m.role === "tool").content).toBe("short");
  });

  it("a handoff switches the thread's agent and the next step runs the new agent's prompt", async () => {
    fake.setScript([
      { when: { system_contains: "front desk" }, respond: { tool_calls: [{ name: "helpdesk", arguments: {} }] } },
      { when: { system_contains: "help desk" }, respond: { content: "Help desk here, how can I help?" } },
    ]);
    const { thread, messages } = await run("front", "I need help");
    expect(thread.agent_id).toBe("helpdesk");
    expect(thread.root_agent_id).toBe("front");
    expect(messages.map((m: any) => m.content)).toEqual(["I need help", null, "Handoff complete", "Help desk here, how can I help?"]);
  });
});
