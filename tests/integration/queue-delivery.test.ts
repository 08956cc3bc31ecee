import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { readSse } from "../helpers/sse";
import { api, fixtureAgents, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

const stored = async (id: string) =>
  ((await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[]).map((m) => `${m.role}:${m.content}`);
const post = async (id: string, content: string, role?: string) =>
  expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content, ...(role ? { role } : {}) })).status).toBe(202);

describe("queue delivery (design.md §4)", () => {
  it("while a step is in flight: messages are delivered in FIFO order before the next LLM step", async () => {
    fake.setScript([
      { when: { last_contains: "start" }, times: 1, delay_ms: 1500, respond: { tool_calls: [{ name: "echo", arguments: { text: "working" } }] } },
      { respond: { content: "got both" } },
    ]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId;
    await post(id, "start");
    await waitFor(async () => fake.getRequests().length >= 1);
    await post(id, "A");
    await post(id, "B");
    expect((await api(t.url, "GET", `/api/threads/${id}`)).body.thread.status).toBe("running");

    const thread = await waitForThread(t.url, id);
    expect(thread.stop_reason).toBe("response");
    const requests = fake.getRequests();
    expect(requests).toHaveLength(2);
    expect(requests[0]!.messages.map((m: any) => m.content)).not.toContain("A");
    expect(requests[1]!.messages.slice(1).map((m: any) => `${m.role}:${m.content}`)).toEqual([
      "user:start",
      "assistant:null",
      "tool:echo: working",
      "user:A",
      "user:B",
    ]);
    expect(await stored(id)).toEqual(["user:start", "assistant:null", "tool:echo: working", "user:A", "user:B", "assistant:got both"]);
  });

  it("while the turn's last step is in flight: the turn ends, and the message opens the next one without going idle", async () => {
    fake.setScript([
      { when: { last_contains: "first" }, times: 1, delay_ms: 800, respond: { content: "first answer" } },
      { respond: { content: "second answer" } },
    ]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId;
    await post(id, "first");
    await waitFor(async () => fake.getRequests().length >= 1);
    await post(id, "again");
    const thread = await waitForThread(t.url, id);
    expect(thread.stop_reason).toBe("response");
    expect(await stored(id)).toEqual(["user:first", "assistant:first answer", "user:again", "assistant:second answer"]);
    const markOf = (e: { data: { type: string; status?: string; reason?: string } }) =>
      e.data.type === "thread.stopped" || e.data.type === "thread.status" ? `${e.data.type}:${e.data.status ?? e.data.reason}` : null;
    const events = await readSse(`${t.url}/api/threads/${id}/stream`, {
      until: (ev) => ev.filter((e) => e.data.type === "thread.stopped").length >= 2 && markOf(ev.at(-1)!) === "thread.status:idle",
    });
    // Idle when created, then running through both turns: the first turn's end found the message waiting.
    expect(events.map(markOf).filter(Boolean)).toEqual([
      "thread.status:idle",
      "thread.status:running",
      "thread.stopped:response",
      "thread.stopped:response",
      "thread.status:idle",
    ]);
  });

  it("while idle: a user message starts a turn; an assistant message in ai_human starts nothing", async () => {
    fake.setScript([{ respond: { content: "hello back" } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId;
    await post(id, "Note from the operator", "assistant");
    await new Promise((r) => setTimeout(r, 300));
    expect((await waitForThread(t.url, id)).status).toBe("idle");
    expect(fake.getRequests()).toHaveLength(0);

    await post(id, "hello");
    const thread = await waitForThread(t.url, id);
    expect(thread.stop_reason).toBe("response");
    expect(fake.getRequests()).toHaveLength(1);
    expect(fake.getRequests()[0]!.messages.slice(1)).toEqual([
      { role: "assistant", content: "Note from the operator" },
      { role: "user", content: "hello" },
    ]);
    expect(await stored(id)).toEqual(["assistant:Note from the operator", "user:hello", "assistant:hello back"]);
  });

  it("several messages posted to an idle thread are all delivered, in the order they were posted", async () => {
    fake.setScript([{ respond: { content: "ok" } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId;
    for (const m of ["one", "two", "three"]) await post(id, m);
    await waitForThread(t.url, id);
    const users = (await stored(id)).filter((m) => m.startsWith("user:"));
    expect(users).toEqual(["user:one", "user:two", "user:three"]);
    const last = fake.getRequests().at(-1)!.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    expect(last).toEqual(["one", "two", "three"]);
  });
});
