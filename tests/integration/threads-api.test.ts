import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";
import { readSse } from "../helpers/sse";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "test-key" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

describe("POST /api/threads", () => {
  it("answers 400 with the field path for an unknown agent and for a malformed body", async () => {
    const unknown = await api(t.url, "POST", "/api/threads", { agent_id: "nobody" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/unknown agent "nobody"/);
    const bad = await api(t.url, "POST", "/api/threads", { agent_id: 5, tags: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: any) => d.path).sort()).toEqual(["agent_id", "tags"]);
    const notJson = await fetch(`${t.url}/api/threads`, { method: "POST", body: "{oops" });
    expect(notJson.status).toBe(400);
  });

  it("requires every required variable of the agent's graph, naming each missing one", async () => {
    const res = await api(t.url, "POST", "/api/threads", { agent_id: "keyed", env: { REGION: "eu" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.missing).toEqual(["API_TOKEN"]);
    expect(res.body.error.message).toContain("API_TOKEN");
  });

  it("stores env (secrets masked), tags and initial messages", async () => {
    const res = await api(t.url, "POST", "/api/threads", {
      agent_id: "keyed",
      env: { REGION: "eu", API_TOKEN: "canary-secret-123" },
      tags: ["test", "name:first"],
      initial_messages: [{ role: "assistant", content: "Welcome!" }],
    });
    expect(res.status).toBe(201);
    expect(res.body.threadId).toBe(res.body.thread.id);
    const got = await api(t.url, "GET", `/api/threads/${res.body.threadId}`);
    expect(got.body.thread).toMatchObject({ agent_id: "keyed", status: "idle", tags: ["test", "name:first"], env: { REGION: "eu", API_TOKEN: "••••" } });
    expect(JSON.stringify(got.body)).not.toContain("canary-secret-123");
    const msgs = await api(t.url, "GET", `/api/threads/${res.body.threadId}/messages`);
    expect(msgs.body.messages.map((m: any) => [m.role, m.content])).toEqual([["assistant", "Welcome!"]]);
  });
});

describe("chatting with an ai_human agent", () => {
  it("announces each of a step's tool calls once, in order, after the step and before its own result", async () => {
    fake.setScript([
      {
        when: { last_role: "user" },
        times: 1,
        respond: { tool_calls: [{ name: "echo", arguments: { text: "one" } }, { name: "echo", arguments: { text: "two" } }] },
      },
      { when: { last_role: "tool" }, respond: { content: "Both echoed" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
    const id = body.threadId;
    const streamed = readSse(`${t.url}/api/threads/${id}/stream`, {
      until: (ev) => ev.some((e) => e.data.type === "thread.stopped" && e.data.reason === "response"),
    });
    await new Promise((r) => setTimeout(r, 100));
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "echo twice" });
    const events = (await streamed).filter((e) => e.id !== null);
    const seq = (pred: (d: any) => boolean) => events.filter((e) => pred(e.data)).map((e) => e.id!);
    const calls = events.find((e) => e.data.type === "message.created" && e.data.message.tool_calls)!.data.message.tool_calls;
    const [a, b] = calls.map((c: any) => c.id);
    const stepDone = seq((d) => d.type === "step.completed")[0]!;
    const startedA = seq((d) => d.type === "tool.started" && d.toolCallId === a);
    const startedB = seq((d) => d.type === "tool.started" && d.toolCallId === b);
    const doneA = seq((d) => d.type === "tool.completed" && d.toolCallId === a);
    const doneB = seq((d) => d.type === "tool.completed" && d.toolCallId === b);
    expect([startedA.length, startedB.length, doneA.length, doneB.length]).toEqual([1, 1, 1, 1]);
    expect(stepDone).toBeLessThan(startedA[0]!);
    expect(startedA[0]!).toBeLessThan(doneA[0]!);
    expect(doneA[0]!).toBeLessThan(startedB[0]!);
    expect(startedB[0]!).toBeLessThan(doneB[0]!);
    expect(events.find((e) => e.data.type === "tool.started" && e.data.toolCallId === a)!.data).toMatchObject({ name: "echo", kind: "tool" });
  });

  it("streams tokens over SSE, stores the exchange and logs the LLM request", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "hi" } }] } },
      { when: { last_role: "tool" }, respond: { content: "The echo said hi back to you" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
    const id = body.threadId;
    const streamed = readSse(`${t.url}/api/threads/${id}/stream`, {
      until: (ev) => ev.some((e) => e.data.type === "thread.stopped" && e.data.reason === "response"),
    });
    await new Promise((r) => setTimeout(r, 100));
    const posted = await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "say hi" });
    expect(posted.status).toBe(202);
    const events = await streamed;
    const types = events.map((e) => e.data.type);
    expect(types).toContain("token.delta");
    expect(types).toContain("tool.started");
    expect(types).toContain("tool.completed");
    const text = events.filter((e) => e.data.type === "token.delta").map((e) => e.data.content ?? "").join("");
    expect(text).toBe("The echo said hi back to you");
    const persisted = events.filter((e) => e.id !== null).map((e) => e.id!);
    expect(persisted).toEqual([...persisted].sort((a, b) => a - b));
    expect(new Set(persisted).size).toBe(persisted.length);

    const thread = await waitForThread(t.url, id);
    expect(thread.stop_reason).toBe("response");
    const msgs = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages;
    expect(msgs.map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(msgs[0].id).toBe(posted.body.messageId);
    const requests = fake.getRequests();
    expect(requests[0]!.messages[0]).toEqual({ role: "system", content: "You are a test assistant for Acme." });
    expect(requests[0]!.model).toBe("primary-model");
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ model_name: "primary", model: "primary-model", status: "success" });
    expect(logs[0].input_tokens).toBeGreaterThan(0);
    const cost = (await api(t.url, "GET", `/api/threads/${id}/cost`)).body;
    expect(cost.own.requests).toBe(2);
    expect(cost.own.cost).toBeGreaterThan(0);
  });

  it("resumes the stream after Last-Event-ID with nothing lost or doubled", async () => {
    fake.setScript([{ respond: { content: "one two three four" } }]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
    const id = body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "count" });
    await waitForThread(t.url, id);
    const finished = (ev: { data: any }[]) => ev.some((e) => e.data.type === "thread.status" && e.data.status === "idle" && ev.some((x) => x.data.type === "thread.stopped"));
    const all = await readSse(`${t.url}/api/threads/${id}/stream`, { until: finished });
    expect(all.filter((e) => e.id === null)).toEqual([]); // token deltas are live only: a replay has none
    const ids = all.filter((e) => e.id !== null).map((e) => e.id!);
    expect(ids[0]).toBe(1);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    const cut = ids[Math.floor(ids.length / 2)]!;
    const rest = await readSse(`${t.url}/api/threads/${id}/stream`, { lastEventId: cut, until: (ev) => ev.some((e) => e.id === ids.at(-1)) });
    expect(rest.map((e) => e.id)).toEqual(ids.filter((x) => x > cut));
    expect(rest.map((e) => e.data)).toEqual(all.filter((e) => e.id !== null && e.id > cut).map((e) => e.data));
  });

  it("rejects a message to an unknown thread with 404 and an empty one with 400", async () => {
    expect((await api(t.url, "POST", "/api/threads/nope/messages", { content: "x" })).status).toBe(404);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
    const empty = await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "  " });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0].path).toBe("content");
  });
});

describe("dual_ai over HTTP", () => {
  it("each side sees its own messages as assistant and the other side's as user, without its tool messages", async () => {
    fake.setScript([
      { when: { system_contains: "worker", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "draft" } }] } },
      { when: { system_contains: "worker", last_role: "tool" }, times: 1, respond: { content: "Here is the draft" } },
      { when: { system_contains: "reviewer" }, respond: { tool_calls: [{ name: "approve", arguments: { summary: "Looks good" } }] } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "duo", initial_messages: [{ role: "user", content: "Write a draft" }] });
    const thread = await waitForThread(t.url, body.threadId);
    expect(thread.stop_reason).toBe("session_stop");
    const reviewerReq = fake.getRequests().find((r) => JSON.stringify(r.messages[0]).includes("reviewer"))!;
    expect(reviewerReq.messages).toEqual([
      { role: "system", content: "You are the reviewer." },
      { role: "assistant", content: "Write a draft" },
      { role: "user", content: "Here is the draft" },
    ]);
  });
});

describe("stop, continue, terminate", () => {
  it("stop aborts the in-flight step with user_stop; continue runs on; terminate is final", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, delay_ms: 5_000, respond: { content: "too late" } },
      { respond: { content: "continued answer" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
    const id = body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "slow please" });
    // The step is in flight once the model has the request (not after a fixed delay: slower databases take longer).
    await waitFor(async () => fake.getRequests().length >= 1);
    const stopped = await api(t.url, "POST", `/api/threads/${id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.thread).toMatchObject({ status: "idle", stop_reason: "user_stop" });
    const cont = await api(t.url, "POST", `/api/threads/${id}/continue`);
    expect(cont.status).toBe(202);
    const after = await waitForThread(t.url, id);
    expect(after.stop_reason).toBe("response");
    const msgs = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages;
    expect(msgs.map((m: any) => m.content)).toEqual(["slow please", "continued answer"]);
    const term = await api(t.url, "POST", `/api/threads/${id}/terminate`);
    expect(term.body.thread.status).toBe("terminated");
    expect(term.body.thread.terminated).toBeGreaterThan(0);
    const rejected = await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "still there?" });
    expect(rejected.status).toBe(409);
  });
});
