import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
import { api, fixtureAgents, waitFor, waitForThread } from "../helpers/test-app";

let fake: FakeLlm;
let server: ServerProcess;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => fake?.close());
afterEach(async () => server?.stop());

async function boot() {
  server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
  await server.start();
}

const messages = async (id: string) => (await api(server.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];

describe("durability: a SIGKILL never loses or duplicates a message", () => {
  it("killed during an LLM call: the step runs again after restart and the thread finishes", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { last_contains: "crash me" }, times: 1, delay_ms: 10_000, respond: { content: "never delivered" } },
      { respond: { content: "answer after restart" } },
    ]);
    await boot();
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "chat" });
    const id = body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "crash me" });
    try {
    await waitFor(async () => fake.getRequests().length >= 1);
    console.log("STAGE1 ok");
    await server.kill();
    await server.start();
    console.log("STAGE2 ok");
    const thread = await waitForThread(server.url, id);
    } catch (e) { console.log("OUTPUT", (server as any).output); throw e; }
    const thread = await waitForThread(server.url, id);
    expect(thread.stop_reason).toBe("response");
    const msgs = await messages(id);
    expect(msgs.map((m) => `${m.role}:${m.content}`)).toEqual(["user:crash me", "assistant:answer after restart"]);
  }, 60_000);

  it("killed during a tool call: the missing tool result is produced once, then the turn completes", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "slow", arguments: { ms: 2500 } }] } },
      { when: { last_role: "tool" }, respond: { content: "tool finished" } },
    ]);
    await boot();
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "chat" });
    const id = body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "run the slow tool" });
    await waitFor(async () => (await messages(id)).some((m) => m.role === "assistant" && m.tool_calls?.length));
    await server.kill();
    await server.start();
    const thread = await waitForThread(server.url, id);
    expect(thread.stop_reason).toBe("response");
    const msgs = await messages(id);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(msgs[2].content).toBe("slept 2500 ms");
    const runs = await fetch(`${server.url}/api/threads/${id}/fs/slow-runs.txt`);
    expect(await runs.text()).toBe("1");
  }, 60_000);

  it("queued messages posted before a kill are each delivered exactly once after restart", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { last_contains: "first" }, times: 1, delay_ms: 10_000, respond: { content: "lost" } },
      { respond: { content: "handled everything" } },
    ]);
    await boot();
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "chat" });
    const id = body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "first" });
    await waitFor(async () => fake.getRequests().length >= 1);
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "second" });
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "third" });
    await server.kill();
    await server.start();
    await waitForThread(server.url, id);
    const msgs = await messages(id);
    expect(msgs.map((m) => `${m.role}:${m.content}`)).toEqual(["user:first", "user:second", "user:third", "assistant:handled everything"]);
  }, 60_000);
});

describe("durability of a subagent tree", () => {
  it("parent → manager → worker survives SIGKILLs during the worker's step and during the manager's step after the worker reported", async () => {
    fake.clearRequests();
    const boss = "You are the boss.";
    const manager = "You are the middle manager.";
    const worker = "You are the child worker.";
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "mid_duo", arguments: { task: "Organise" } }] } },
      { when: { system_contains: manager, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Work" } }] } },
      { when: { system_contains: worker }, times: 1, delay_ms: 10_000, respond: { content: "lost" } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "worked" } }] } },
      { when: { system_contains: manager, last_role: "tool" }, times: 1, delay_ms: 10_000, respond: { content: "lost" } },
      { when: { system_contains: manager, last_role: "tool" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed: worked" } }] } },
      { when: { system_contains: boss, last_role: "tool" }, respond: { content: "Everything is done." } },
    ]);
    await boot();
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "boss" });
    const id = body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "start" });
    const seen = (text: string, n = 1) => waitFor(async () => fake.getRequests().filter((r) => String(r.messages[0]!.content).includes(text)).length >= n, 30_000);
    await seen(worker);
    await server.kill();
    await server.start();
    await seen(manager, 2);
    await server.kill();
    await server.start();
    await waitFor(async () => (await messages(id)).at(-1)?.content === "Everything is done.", 40_000);
    const [mid] = (await api(server.url, "GET", `/api/threads/${id}/subagents`)).body.subagents;
    const [leaf] = (await api(server.url, "GET", `/api/threads/${mid.reference}/subagents`)).body.subagents;
    expect(mid.status).toBe("terminated");
    expect(leaf.status).toBe("terminated");
    const top = await messages(id);
    expect(top.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(top[2].content).toBe(`managed: worked\n\nReference: ${mid.reference}`);
    const midMsgs = await messages(mid.reference);
    expect(midMsgs.filter((m) => m.role === "tool" && m.name === "worker_duo").map((m) => m.content)).toEqual([`worked\n\nReference: ${leaf.reference}`]);
    // Exactly one child at each level: the interrupted spawns were not repeated.
    expect((await api(server.url, "GET", `/api/threads?parent_id=${id}`)).body.total).toBe(1);
    expect((await api(server.url, "GET", `/api/threads?parent_id=${mid.reference}`)).body.total).toBe(1);
  }, 120_000);
});
