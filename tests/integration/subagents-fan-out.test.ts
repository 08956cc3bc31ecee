/**
 * A step that calls several non-blocking subagents (a fan-out) answers them together (subagents/spawn-batch.ts): the
 * same stored messages, registry and events, in call order, as calls answered one by one; an invalid call among them
 * gets its tool error and the others still spawn; a blocking call after them takes the one-call path.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";
import { messagesAt, registryAt, settleTreeAt } from "../helpers/thread-queries";

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

const boss = "You are the boss.";
const worker = "You are the child worker.";
const manager = "You are the middle manager.";
const events = async (id: string) => (await t.app.persistence.events.after(id, 0, 10_000)).map((e) => e.event as any);

describe("fan-out of non-blocking subagents", () => {
  it("spawns each call's child with its tool message and events in call order; every child reports once", async () => {
    const calls = [
      { name: "bg_duo", arguments: { task: "Job 1" } },
      { name: "bg_duo", arguments: { task: "Job 2" } },
      { name: "bg_duo", arguments: { nope: true } },
      { name: "bg_duo", arguments: { task: "Job 3" } },
      { name: "mid_duo", arguments: { task: "Blocking job" } },
    ];
    fake.setScript([
      { when: { system_contains: boss, last_role: "user", last_contains: "fan out" }, times: 1, respond: { tool_calls: calls } },
      { when: { system_contains: manager, last_contains: "Blocking job" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "blocking done" } }] } },
      { when: { system_contains: worker, last_contains: "Job" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "job done" } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "boss" })).body.threadId as string;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "fan out now" });
    await settleTreeAt(t.url, id);

    const registry = await registryAt(t.url, id);
    expect(registry.map((e: any) => e.name)).toEqual(["bg_duo", "bg_duo", "bg_duo", "mid_duo"]);
    const [r1, r2, r3, blocking] = registry;
    expect(new Set(registry.map((e: any) => e.spawnGroupId)).size).toBe(1);
    const history = await messagesAt(t.url, id);
    const tools = history.filter((m: any) => m.role === "tool");
    expect(tools.map((m: any) => `${m.tool_status}:${m.content.split("\n")[0]}`)).toEqual([
      `success:The subagent was initiated successfully. Reference: ${r1.reference}`,
      `success:The subagent was initiated successfully. Reference: ${r2.reference}`,
      expect.stringMatching(/^error:Invalid arguments for bg_duo: task: /),
      `success:The subagent was initiated successfully. Reference: ${r3.reference}`,
      "success:blocking done",
    ]);
    const reports = history.filter((m: any) => m.silent && m.subagent_id).map((m: any) => m.subagent_id);
    expect(reports.sort()).toEqual([r1.reference, r2.reference, r3.reference].sort());
    expect(registry.map((e: any) => e.status)).toEqual(["terminated", "terminated", "terminated", "terminated"]);
    expect(blocking.reference).not.toBe(r3.reference);

    // Per call, in call order: started, (spawned), its message, completed.
    const evs = (await events(id)).filter((e) => ["tool.started", "tool.completed", "subagent.updated"].includes(e.type) && e.change !== "completed");
    const ids = (history.find((m: any) => m.tool_calls?.length === 5)!.tool_calls as any[]).map((c) => c.id);
    const trail = evs.map((e) => (e.type === "subagent.updated" ? `spawned:${e.childId}` : `${e.type}:${e.toolCallId}`)).slice(0, 13);
    expect(trail).toEqual([
      `tool.started:${ids[0]}`,
      `spawned:${r1.reference}`,
      `tool.completed:${ids[0]}`,
      `tool.started:${ids[1]}`,
      `spawned:${r2.reference}`,
      `tool.completed:${ids[1]}`,
      `tool.started:${ids[2]}`,
      `tool.completed:${ids[2]}`,
      `tool.started:${ids[3]}`,
      `spawned:${r3.reference}`,
      `tool.completed:${ids[3]}`,
      // The blocking call after them runs on its own (it is started again when reports re-activate the parent).
      `tool.started:${ids[4]}`,
      `spawned:${blocking.reference}`,
    ]);
    // Each child ran its work once.
    const jobs = fake.getRequests().filter((r) => String(r.messages[0]!.content).includes(worker) && String(r.messages.at(-1)?.content).startsWith("Job"));
    expect(jobs.map((r) => r.messages.at(-1)!.content).sort()).toEqual(["Job 1", "Job 2", "Job 3"]);
  });
});
