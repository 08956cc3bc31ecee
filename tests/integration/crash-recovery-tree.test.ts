import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
import { api, fixtureAgents, waitFor } from "../helpers/test-app";

let fake: FakeLlm;
let server: ServerProcess;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => fake?.close());
afterEach(async () => server?.stop());

const boss = "You are the crash boss.";
const manager = "You are the crash manager.";
const leaf = "You are the crash leaf.";

const get = async (p: string) => (await api(server.url, "GET", p)).body;
const messages = async (id: string) => (await get(`/api/threads/${id}/messages?includeSilent=true`)).messages as any[];
const registry = async (id: string) => (await get(`/api/threads/${id}/subagents`)).subagents as any[];
const children = async (id: string) => (await get(`/api/threads?parent_id=${id}&limit=100`)).threads as any[];
const slowRuns = async (id: string) => (await fetch(`${server.url}/api/threads/${id}/fs/slow-runs.txt`)).text();
const seen = (system: string) => waitFor(async () => fake.getRequests().some((r) => String(r.messages[0]!.content).includes(system)), 30_000);
async function restart() {
  await server.kill();
  await server.start();
}

describe("durability of a three-level subagent tree", () => {
  it("SIGKILLs at spawn, during a child step, at child completion and at queued delivery: each result reaches its parent exactly once", async () => {
    fake.clearRequests();
    fake.setScript([
      // The boss spawns the blocking manager, then runs a slow tool in the same step.
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "crash_mid", arguments: { task: "Organise" } }, { name: "slow", arguments: { ms: 6000 } }] } },
      // The manager's first LLM call hangs (killed); on restart it starts a non-blocking leaf and works slowly meanwhile.
      { when: { system_contains: manager, last_contains: "Organise" }, times: 1, delay_ms: 10_000, respond: { content: "lost" } },
      { when: { system_contains: manager, last_contains: "Organise" }, times: 1, respond: { tool_calls: [{ name: "crash_leaf", arguments: { task: "Dig" } }, { name: "slow", arguments: { ms: 10_000 } }] } },
      // The leaf completes (sessionStop) in a step that also runs a slow tool: killed before the completion is reported.
      { when: { system_contains: leaf, last_contains: "Dig" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "dug" } }, { name: "slow", arguments: { ms: 3000 } }] } },
      { when: { system_contains: manager, last_contains: "has returned the following result" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed: dug" } }] } },
      { when: { system_contains: boss, last_role: "tool" }, times: 1, respond: { content: "Everything is done." } },
    ]);
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "start" });

    // 1. At spawn / during the child's step: the boss's spawning step is unfinished (slow running), the manager's LLM call in flight.
    await seen(manager);
    expect((await messages(id)).filter((m) => m.role === "tool")).toEqual([]);
    await restart();

    // 2. At child completion: the leaf's finish_work is stored, its step (slow) unfinished, nothing reported yet.
    const [mid] = await waitFor(async () => ((await children(id)).length ? children(id) : null), 30_000);
    const leafThread = await waitFor(async () => (await children(mid.id))[0], 30_000);
    await waitFor(async () => (await messages(leafThread.id)).some((m) => m.tool_calls?.some((c: any) => c.function.name === "finish_work")), 30_000);
    expect((await registry(mid.id))[0].status).toBe("running");
    await restart();

    // 3. At queued delivery: the leaf reported (non-blocking), its message waits in the busy manager's queue.
    await waitFor(async () => (await registry(mid.id))[0]?.status === "terminated", 30_000);
    expect((await messages(mid.id)).filter((m) => m.subagent_id)).toEqual([]);
    await restart();

    await waitFor(async () => (await messages(id)).at(-1)?.content === "Everything is done.", 60_000);
    const top = await messages(id);
    expect(top.map((m) => `${m.role}:${m.name ?? ""}`)).toEqual(["user:", "assistant:", "tool:slow", "tool:crash_mid", "assistant:"]);
    expect(top[3].content).toBe(`managed: dug\n\nReference: ${mid.id}`);
    const reports = (await messages(mid.id)).filter((m) => m.subagent_id === leafThread.id);
    expect(reports.map((m) => [m.silent, m.content])).toEqual([[true, `Subagent (reference: ${leafThread.id}) has returned the following result:\n\ndug`]]);
    // One child per level: interrupted spawning steps were finished, not repeated; each slow tool completed once.
    expect((await children(id)).length).toBe(1);
    expect((await children(mid.id)).length).toBe(1);
    expect([await slowRuns(id), await slowRuns(mid.id), await slowRuns(leafThread.id)]).toEqual(["1", "1", "1"]);
    // No registry entry stays running, and every thread of the tree has settled.
    expect([...(await registry(id)), ...(await registry(mid.id))].map((e) => e.status)).toEqual(["terminated", "terminated"]);
    for (const x of [id, mid.id, leafThread.id]) expect((await get(`/api/threads/${x}`)).thread.status).not.toBe("running");
  }, 180_000);

  it("instances spawned by one step share a spawn group even when the step is finished after a restart", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "crash_mid", arguments: { task: "Alpha" } }, { name: "slow", arguments: { ms: 6000 } }, { name: "crash_mid", arguments: { task: "Beta" } }] } },
      { when: { system_contains: manager }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "ok" } }] } },
      { when: { system_contains: boss, last_role: "tool" }, times: 1, respond: { content: "Both done." } },
    ]);
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "crash_boss" })).body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "start" });
    await waitFor(async () => (await registry(id)).length === 1, 30_000);
    await restart(); // the second instance is spawned by the step finished after the restart
    // This wait has (rarely) run out in full-suite runs on SQLite, never alone: say what the tree and the server did.
    await waitFor(async () => (await messages(id)).at(-1)?.content === "Both done.", 60_000).catch(async (err: Error) => {
      const tree = [id, ...(await registry(id)).map((e) => e.reference as string)];
      const lines = await Promise.all(
        tree.map(async (x) => `${x} ${(await get(`/api/threads/${x}`)).thread.status}: ${JSON.stringify((await messages(x)).map((m) => `${m.role}:${m.name ?? ""}`))}`),
      );
      throw new Error(`${err.message}\n${lines.join("\n")}\nserver output (end):\n${server.output.slice(-3000)}`);
    });
    const entries = await registry(id);
    expect(entries).toHaveLength(2);
    expect(entries[0].spawnGroupId).toBeTruthy();
    expect(entries[1].spawnGroupId).toBe(entries[0].spawnGroupId);
  }, 120_000);
});
