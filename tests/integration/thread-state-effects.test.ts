import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
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

async function runTool(name: string, args: Record<string, unknown>, opts: { warmUp?: boolean } = {}) {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "scheduler" });
  if (opts.warmUp) {
    // A first turn, so the thread has earlier messages and LLM logs to page through.
    fake.setScript([{ respond: { content: "warmed up" } }]);
    await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "warm up" });
    await waitForThread(t.url, body.threadId);
  }
  fake.setScript([
    { when: { last_contains: "go" }, times: 1, respond: { tool_calls: [{ name, arguments: args }] } },
    { respond: { content: "done" } },
  ]);
  await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "go" });
  await waitForThread(t.url, body.threadId);
  const messages = (await api(t.url, "GET", `/api/threads/${body.threadId}/messages?includeSilent=true`)).body.messages;
  return { id: body.threadId as string, messages };
}

describe("every ThreadState member, called from a tool", () => {
  it("works as documented, and refuses path traversal", async () => {
    const { id, messages } = await runTool("state_probe", {}, { warmUp: true });
    const tool = messages.find((m: any) => m.role === "tool" && m.name === "state_probe");
    expect(tool.tool_status).toBe("success");
    const r = JSON.parse(tool.content);
    expect(r.identity).toMatchObject({ threadId: id, agentId: "scheduler", userId: null, terminated: null, children: [] });
    expect(r.identity.createdAt).toBeGreaterThan(1e15);
    expect(r.execution).toEqual({ side: "a", agentName: "scheduler", promptName: "scheduler" });
    expect(r.context).toEqual({ seen: 1 });
    expect(r.injected).toEqual({ role: "system", content: "injected note", silent: true });
    expect(r.getMessage).toBe("injected note");
    expect(r.getMessages).toMatchObject({ count: 2, hasMore: true, firstRole: "system" });
    // Offset paging (ascending), read before the probe wrote anything: [user warm up, assistant, user go, assistant call].
    expect(messages.slice(0, 4).map((m: any) => m.content)).toEqual(["warm up", "warmed up", "go", null]);
    expect(r.getMessagesOffset).toEqual({ ids: [messages[1].id, messages[2].id], total: 4, hasMore: true });
    expect(r.updateMessage).toBe("updated note");
    expect(r.deleteMessage).toBe(true);
    expect(r.deleteMissing).toBe(false);
    expect(r.getLogs).toEqual(["primary", "primary"]);
    expect(r.getLogsOrder.asc).toHaveLength(2);
    expect(r.getLogsOrder.newest).toEqual([r.getLogsOrder.asc[1]]);
    expect(r.loadModel).toBe("primary-model");
    expect(r.loadPrompt).toBe("scheduler");
    expect(r.loadAgent).toBe("ai_human");
    expect(r.names).toMatchObject({ prompts: true, agents: true, models: expect.arrayContaining(["backup", "primary"]) });
    expect(r.envMissing.error).toMatch(/NOPE_NOT_DEFINED is not defined/);
    expect(r.setEnv).toBe("42");
    expect(r.writeFile).toBe("/docs/a.txt");
    expect(r.readFile).toBe("alpha\nbeta line\n");
    expect(r.readFileStream).toBe(4);
    expect(r.statFile).toBe(16);
    expect(r.readdirFile).toEqual(["directory:/docs/deep", "file:/docs/a.txt"]);
    expect(r.mkdirFile).toBe("directory");
    expect(r.rmdirFile).toBe(true);
    expect(r.rmdirNonEmpty.error).toMatch(/not empty/);
    expect(r.getFileStats).toMatchObject({ fileCount: 2 });
    expect(r.grepFiles).toEqual(["/docs/a.txt:2", "/docs/deep/b.md:1"]);
    expect(r.findFiles).toEqual(["/docs/deep/b.md"]);
    expect(r.getFileThumbnail).toBe(true);
    expect(r.unlinkFile).toBe(true);
    expect(r.traversal.error).toMatch(/"\.\." is not allowed/);
    expect(r.invokeTool).toMatchObject({ status: "success", result: expect.stringMatching(/^scheduled /) });
    expect(r.effects).toEqual({ listed: true, removed: true, again: false });
    expect(r.unknownEffect.error).toMatch(/Effect nope is not defined/);
    expect(r.getParentThread).toBe(true);
    expect(r.getChildThread).toBe(true);
    expect(r.notifyParent.error).toMatch(/no parent/);
    expect(r.setStatus.error).toMatch(/no parent/);
    // queueTool: the queued call shows up as a regular tool call, and the model sees its result.
    const queued = messages.filter((m: any) => m.role === "tool" && m.name === "echo");
    expect(queued.map((m: any) => m.content)).toEqual(["echo: queued call"]);
    // queueMessage: delivered as a (silent) user message after the probe's tool results.
    expect(r.queueMessage).toBe("queued");
    const queuedMsg = messages.find((m: any) => m.content === "queued by the probe");
    expect(queuedMsg).toMatchObject({ role: "user", silent: true });
    expect(messages.indexOf(queuedMsg)).toBeGreaterThan(messages.indexOf(tool));
    // emit: a custom event in the event log, replayed on the stream.
    const stream = await readSse(`${t.url}/api/threads/${id}/stream`, { lastEventId: 0, until: (ev) => ev.some((e) => e.data.type === "custom") });
    expect(stream.find((e) => e.data.type === "custom")?.data).toMatchObject({ type: "custom", event: "probe.done", data: { ok: true } });
    const logged = await t.app.prisma.threadEvent.findMany({ where: { threadId: id } });
    expect(logged.some((e) => e.type === "custom" && JSON.stringify(e.data).includes("probe.done"))).toBe(true);
    const thread = (await api(t.url, "GET", `/api/threads/${id}`)).body.thread;
    expect(thread.env.PROBE_VAR).toBe("42");
    // File API over HTTP refuses traversal too.
    const traversal = await fetch(`${t.url}/api/threads/${id}/fs/attachments/..%2F..%2Fsecrets`);
    expect(traversal.status).toBe(400);
    expect(((await traversal.json()) as any).error.message).toMatch(/not allowed/);
  });
});

describe("state.terminate, called from a tool", () => {
  it("terminates the thread: status terminated, its time set, new messages refused", async () => {
    const { id, messages } = await runTool("end_thread", {});
    const thread = await waitForThread(t.url, id, ["terminated"]);
    expect(thread.terminated).toBeGreaterThan(1e15);
    expect(messages.filter((m: any) => m.role === "assistant" && m.content === "done")).toEqual([]);
    expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "still there?" })).status).toBe(409);
  });
});

describe("state.context", () => {
  it("is one object per activation, shared by tool calls, hooks and invokeTool", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "ctx_count", arguments: {} }, { name: "ctx_count", arguments: { invoke: true } }] } },
      { when: { last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "ctx_count", arguments: {} }] } },
      { respond: { content: "done" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "counter" });
    await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "count" });
    await waitForThread(t.url, body.threadId);
    const messages = (await api(t.url, "GET", `/api/threads/${body.threadId}/messages`)).body.messages;
    const results = messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
    // Call 2 sees call 1's count (and its invokeTool counts too); the next step of the activation sees both.
    expect(results).toEqual(["count 1 (hook saw 1)", "count 3 (hook saw 3)", "count 4 (hook saw 4)"]);
  });
});

describe("effects", () => {
  it("run after their delay with a ThreadState, and are listed with their status", async () => {
    const { id } = await runTool("schedule", { effect: "remember", note: "soon", delay: 300 });
    const effects = (await api(t.url, "GET", `/api/threads/${id}/effects`)).body.effects;
    expect(effects).toHaveLength(1);
    await waitFor(async () => (await api(t.url, "GET", `/api/threads/${id}/effects`)).body.effects[0].status === "done", 10_000);
    expect(await (await fetch(`${t.url}/api/threads/${id}/fs/effects/soon.txt`)).text()).toMatch(/^ran at \d+/);
    const messages = (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages;
    expect(messages.some((m: any) => m.content === "Reminder: soon" && m.silent)).toBe(true);
  });

  it("a failing effect is recorded with its error and attempt count", async () => {
    const { id } = await runTool("schedule", { effect: "flaky", delay: 0 });
    const effect = await waitFor(async () => {
      const e = (await api(t.url, "GET", `/api/threads/${id}/effects`)).body.effects[0];
      return e.status === "failed" ? e : undefined;
    }, 15_000);
    expect(effect).toMatchObject({ attempts: 3, last_error: "the effect failed on purpose" });
  });
});

describe("effects survive a restart", () => {
  let server: ServerProcess | undefined;
  afterEach(async () => server?.stop());

  it("an effect scheduled before a SIGKILL runs after the restart", async () => {
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "schedule", arguments: { effect: "remember", note: "after-restart", delay: 1500 } }] } },
      { respond: { content: "scheduled" } },
    ]);
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "scheduler" });
    await api(server.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "go" });
    await waitForThread(server.url, body.threadId);
    await server.kill();
    await server.start();
    await waitFor(async () => (await api(server!.url, "GET", `/api/threads/${body.threadId}/effects`)).body.effects?.[0]?.status === "done", 20_000);
    expect((await fetch(`${server.url}/api/threads/${body.threadId}/fs/effects/after-restart.txt`)).status).toBe(200);
  }, 60_000);

  it("an effect killed while running runs again after the restart, the interrupted attempt counted", async () => {
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "schedule", arguments: { effect: "slow_effect", delay: 0 } }] } },
      { respond: { content: "scheduled" } },
    ]);
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "scheduler" });
    const id = body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "go" });
    const effects = async () => (await api(server!.url, "GET", `/api/threads/${id}/effects`)).body.effects as any[];
    await waitFor(async () => (await effects())[0]?.status === "running", 15_000);
    await waitFor(async () => (await fetch(`${server!.url}/api/threads/${id}/fs/effect-starts.txt`)).ok, 5_000);
    await server.kill();
    await server.start();
    const done = await waitFor(async () => {
      const [e] = await effects();
      return e?.status === "done" ? e : undefined;
    }, 40_000); // on PostgreSQL the dead process's job and lease expire first (2 × WORKER_LEASE_SECONDS)
    expect(done.attempts).toBe(2);
    expect(await (await fetch(`${server.url}/api/threads/${id}/fs/effect-done.txt`)).text()).toBe("done after 2 start(s), attempt 2");
  }, 90_000);

  it("an onInterrupt: 'fail' effect killed while running is not run again: it fails as interrupted", async () => {
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "schedule", arguments: { effect: "once_effect", delay: 0 } }] } },
      { respond: { content: "scheduled" } },
    ]);
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "scheduler" });
    const id = body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "go" });
    const effects = async () => (await api(server!.url, "GET", `/api/threads/${id}/effects`)).body.effects as any[];
    await waitFor(async () => (await fetch(`${server!.url}/api/threads/${id}/fs/once-starts.txt`)).ok, 15_000);
    await server.kill();
    await server.start();
    const failed = await waitFor(async () => {
      const [e] = await effects();
      return e?.status === "failed" ? e : undefined;
    }, 40_000);
    expect(failed.attempts).toBe(1);
    expect(failed.lastError ?? failed.last_error).toContain("not run again");
    expect(await (await fetch(`${server.url}/api/threads/${id}/fs/once-starts.txt`)).text()).toBe("1");
    expect((await fetch(`${server.url}/api/threads/${id}/fs/once-done.txt`)).ok).toBe(false);
  }, 90_000);
});
