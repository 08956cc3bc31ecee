/**
 * A step's last tool message is stored while the next request is in flight (server/runtime/thread/carry.ts). What
 * clients and the database see must not change: each result stored once, right after its call, its events before
 * the next step's; a stop, a failing model or a message posted meanwhile finds it stored first.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { readSse } from "../helpers/sse";
import { messagesAt } from "../helpers/thread-queries";
import { api, fixtureAgents, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", LLM_MAX_RETRIES: "0" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

const messages = (id: string) => messagesAt(t.url, id);

async function chat(content: string): Promise<string> {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
  expect((await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content })).status).toBe(202);
  return body.threadId;
}

const echo = (text: string) => ({ tool_calls: [{ name: "echo", arguments: { text } }] });

/** Every assistant tool call is answered by the message right after it, once. */
function expectAnsweredInPlace(msgs: any[]): void {
  msgs.forEach((m, i) => {
    for (const [k, call] of (m.tool_calls ?? []).entries()) {
      const answer = msgs[i + 1 + k];
      expect(answer).toMatchObject({ role: "tool", tool_call_id: call.id });
    }
  });
  const ids = msgs.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
  expect(new Set(ids).size).toBe(ids.length);
}

describe("a tool result carried into the next request", () => {
  it("is stored once, right after its call, with its events before the next step's; each request carries it", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: echo("one") },
      { when: { last_contains: "echo: one" }, times: 1, respond: echo("two") },
      { when: { last_contains: "echo: two" }, times: 1, respond: echo("three") },
      { respond: { content: "done" } },
    ]);
    const id = await chat("loop");
    await waitForThread(t.url, id);

    const msgs = await messages(id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ["user", "loop"],
      ["assistant", null],
      ["tool", "echo: one"],
      ["assistant", null],
      ["tool", "echo: two"],
      ["assistant", null],
      ["tool", "echo: three"],
      ["assistant", "done"],
    ]);
    expectAnsweredInPlace(msgs);
    const requests = fake.getRequests();
    expect(requests.map((r) => r.messages.at(-1)?.content)).toEqual(["loop", "echo: one", "echo: two", "echo: three"]);

    const events = (await readSse(`${t.url}/api/threads/${id}/stream`, { until: (ev) => ev.some((e) => e.data.type === "thread.stopped") })).map(
      (e) => ({ seq: e.id!, ...e.data }),
    );
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    const steps = events.filter((e) => e.type === "step.started");
    const completed = events.filter((e) => e.type === "tool.completed");
    expect(steps).toHaveLength(4);
    expect(completed).toHaveLength(3);
    completed.forEach((c, i) => {
      expect(c.seq).toBeLessThan(steps[i + 1]!.seq);
      expect(c.seq).toBeGreaterThan(steps[i]!.seq);
      const created = events.find((e) => e.type === "message.created" && e.message.id === c.messageId);
      expect(created!.seq).toBeLessThan(steps[i + 1]!.seq);
    });
  });

  it("a failing model: the result is stored before the error stops the thread", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: echo("one") },
      { status: 400, error: "bad request for this model" },
    ]);
    const id = await chat("fail next");
    const thread = await waitForThread(t.url, id);
    expect(thread).toMatchObject({ status: "idle", stop_reason: "error" });
    const msgs = await messages(id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ["user", "fail next"],
      ["assistant", null],
      ["tool", "echo: one"],
    ]);
    const events = (await readSse(`${t.url}/api/threads/${id}/stream`, { until: (ev) => ev.some((e) => e.data.type === "thread.stopped") })).map(
      (e) => ({ seq: e.id!, ...e.data }),
    );
    const at = (type: string) => events.find((e) => e.type === type)!.seq;
    expect(at("tool.completed")).toBeLessThan(at("thread.stopped"));
  });

  it("a stop while the request that carries it is in flight: the result is stored, then the stop", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: echo("one") },
      { delay_ms: 3000, respond: { content: "too late" } },
    ]);
    const id = await chat("stop me");
    await waitFor(async () => fake.getRequests().length === 2);
    expect((await api(t.url, "POST", `/api/threads/${id}/stop`)).status).toBeLessThan(300);
    const thread = await waitForThread(t.url, id);
    expect(thread).toMatchObject({ status: "idle", stop_reason: "user_stop" });
    const msgs = await messages(id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ["user", "stop me"],
      ["assistant", null],
      ["tool", "echo: one"],
    ]);
    expectAnsweredInPlace(msgs);
  });

  it("a message posted while the tool runs is delivered after the result", async () => {
    fake.setScript([
      { when: { last_role: "user", last_contains: "start" }, times: 1, respond: { tool_calls: [{ name: "slow", arguments: { ms: 600 } }] } },
      { respond: { content: "ok" } },
    ]);
    const id = await chat("start");
    await waitFor(async () => (await messages(id)).some((m) => m.tool_calls?.length));
    expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "meanwhile" })).status).toBe(202);
    await waitForThread(t.url, id);
    const msgs = await messages(id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ["user", "start"],
      ["assistant", null],
      ["tool", "slept 600 ms"],
      ["user", "meanwhile"],
      ["assistant", "ok"],
    ]);
    expectAnsweredInPlace(msgs);
    expect(fake.getRequests()[1]!.messages.slice(-2).map((m: any) => [m.role, m.content])).toEqual([
      ["tool", "slept 600 ms"],
      ["user", "meanwhile"],
    ]);
  });
});
