import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
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

const messages = async (base: string, id: string) =>
  (await api(base, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];

async function chatThread(base: string, content: string): Promise<string> {
  const { body } = await api(base, "POST", "/api/threads", { agent_id: "chat" });
  expect((await api(base, "POST", `/api/threads/${body.threadId}/messages`, { content })).status).toBe(202);
  return body.threadId;
}

describe("POST /stop is durable", () => {
  it("a tool that ignores the abort signal: 202 with the stop recorded, applied once the tool returns; no further step", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "slow", arguments: { ms: 3000 } }] } },
      { respond: { content: "must not be asked" } },
    ]);
    const id = await chatThread(t.url, "run the slow tool");
    await waitFor(async () => (await messages(t.url, id)).some((m) => m.tool_calls?.length));
    const stopped = await api(t.url, "POST", `/api/threads/${id}/stop`);
    expect(stopped.status).toBe(202);
    expect(stopped.body.thread).toMatchObject({ status: "running", stop_requested: true });

    const after = await waitForThread(t.url, id);
    expect(after).toMatchObject({ status: "idle", stop_reason: "user_stop", stop_requested: false });
    expect(fake.getRequests()).toHaveLength(1);
    const msgs = await messages(t.url, id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ["user", "run the slow tool"],
      ["assistant", null],
      ["tool", "slept 3000 ms"],
    ]);
  }, 20_000);

  it("a stop on an idle thread is a no-op answering 200", async () => {
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
    const res = await api(t.url, "POST", `/api/threads/${body.threadId}/stop`);
    expect(res.status).toBe(200);
    expect(res.body.thread).toMatchObject({ status: "idle", stop_reason: null, stop_requested: false });
  });
});

describe("a stop requested through an API-only process reaches the worker process", () => {
  let apiOnly: TestApp;
  let worker: TestApp | undefined;
  beforeAll(async () => {
    apiOnly = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", RUNTIME_WORKERS: "0" } });
  });
  afterAll(async () => {
    await worker?.close();
    await apiOnly?.close();
  });

  it("queued work not yet claimed is stopped before its LLM step; a step in flight elsewhere is aborted", async () => {
    fake.setScript([
      { when: { last_contains: "slow answer" }, times: 1, delay_ms: 10_000, respond: { content: "too late" } },
      { respond: { content: "must not be asked" } },
    ]);
    const id = await chatThread(apiOnly.url, "hello");
    // Nothing runs the work yet: the stop is recorded in the database and reported as pending.
    const pending = await api(apiOnly.url, "POST", `/api/threads/${id}/stop`);
    expect(pending.status).toBe(202);
    expect(pending.body.thread).toMatchObject({ status: "running", stop_requested: true });

    worker = await startTestApp({ agentsSource: fixtureAgents, shareDatabaseWith: apiOnly, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    const applied = await waitForThread(apiOnly.url, id);
    expect(applied).toMatchObject({ stop_reason: "user_stop", stop_requested: false });
    // Which request, if any, reached the scripted server (its time and messages say which app and thread sent it).
    expect(fake.getRequests().map((r) => ({ at: r.at, messages: r.messages }))).toEqual([]);
    expect((await messages(apiOnly.url, id)).map((m) => m.content)).toEqual(["hello"]);

    // Now a step in flight in the worker process, stopped through the API-only process.
    await api(apiOnly.url, "POST", `/api/threads/${id}/messages`, { content: "slow answer please" });
    await waitFor(async () => fake.getRequests().length >= 1);
    const stopped = await api(apiOnly.url, "POST", `/api/threads/${id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.thread).toMatchObject({ status: "idle", stop_reason: "user_stop", stop_requested: false });
    expect((await messages(apiOnly.url, id)).map((m) => m.content)).toEqual(["hello", "slow answer please"]);
    expect(fake.getRequests()).toHaveLength(1);
    // The aborted request keeps its log row, closed as interrupted.
    const logs = (await api(apiOnly.url, "GET", `/api/threads/${id}/logs`)).body.logs as any[];
    expect(logs.map((l) => l.status)).toEqual(["interrupted"]);
  }, 30_000);
});

describe("a stop recorded just before a crash survives it", () => {
  let server: ServerProcess | undefined;
  afterAll(async () => server?.stop());

  it("SIGKILL while a stop waits for a tool: after restart the stop is applied; the tool and the model are not run again", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "slow", arguments: { ms: 8000 } }] } },
      { respond: { content: "must not be asked" } },
    ]);
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    const id = await chatThread(server.url, "run the slow tool");
    await waitFor(async () => (await messages(server!.url, id)).some((m) => m.tool_calls?.length));
    const pending = await api(server.url, "POST", `/api/threads/${id}/stop`);
    expect(pending.status).toBe(202);
    await server.kill();
    await server.start();

    const thread = await waitForThread(server.url, id, ["idle"], 60_000);
    expect(thread).toMatchObject({ stop_reason: "user_stop", stop_requested: false });
    const msgs = await messages(server.url, id);
    expect(msgs.map((m) => [m.role, m.tool_status ?? null])).toEqual([
      ["user", null],
      ["assistant", null],
      ["tool", "error"],
    ]);
    expect((await fetch(`${server.url}/api/threads/${id}/fs/slow-runs.txt`)).status).toBe(404);
    expect(fake.getRequests()).toHaveLength(1);
  }, 150_000);
});

describe("POST /continue", () => {
  it("on a running thread is a no-op (200, current status) and adds no turn; on an idle thread it runs a turn (202)", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, delay_ms: 1000, respond: { content: "first answer" } },
      { respond: { content: "continued" } },
    ]);
    const id = await chatThread(t.url, "hi");
    await waitFor(async () => fake.getRequests().length >= 1);
    const noop = await api(t.url, "POST", `/api/threads/${id}/continue`);
    expect(noop.status).toBe(200);
    expect(noop.body.thread.status).toBe("running");
    const done = await waitForThread(t.url, id);
    expect(done.stop_reason).toBe("response");
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.getRequests()).toHaveLength(1);
    expect((await messages(t.url, id)).map((m) => m.content)).toEqual(["hi", "first answer"]);

    const cont = await api(t.url, "POST", `/api/threads/${id}/continue`);
    expect(cont.status).toBe(202);
    await waitFor(async () => ((await messages(t.url, id)).length === 3 ? true : undefined));
    expect((await messages(t.url, id)).map((m) => m.content)).toEqual(["hi", "first answer", "continued"]);
  }, 20_000);
});
