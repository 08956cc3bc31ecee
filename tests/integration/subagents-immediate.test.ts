import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";
import { settleTreeAt, messagesAt, registryAt } from "../helpers/thread-queries";

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

const settleTree = (id: string) => settleTreeAt(t.url, id);
const messages = (id: string) => messagesAt(t.url, id);
const registry = (id: string) => registryAt(t.url, id);

describe("immediate subagents", () => {
  it("spawn at thread creation, named by nameEnv, started by descriptionEnv, with scopedEnv copied and never shown to a model", async () => {
    const CHANNEL = "chan-canary-51c0";
    fake.setScript([{ when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "watching" } }] } }, { respond: { content: "ok" } }]);
    const { body } = await api(t.url, "POST", "/api/threads", {
      agent_id: "watcher_boss",
      env: { WATCH_NAME: "Sales channel", WATCH_DESC: "Watch the sales channel", CHANNEL },
    });
    await settleTree(body.threadId);
    const reg = await registry(body.threadId);
    expect(reg).toHaveLength(1);
    expect(reg[0]).toMatchObject({ name: "scoped_duo", threadName: "Sales channel", resumable: true });
    const child = (await api(t.url, "GET", `/api/threads/${reg[0].reference}`)).body.thread;
    expect(child.env.CHANNEL).toBe(CHANNEL);
    expect((await messages(child.id))[0]).toMatchObject({ role: "user", content: "Watch the sales channel" });
    expect(JSON.stringify(fake.getRequests())).not.toContain(CHANNEL);
    // Exactly once per activation: a later message to the parent spawns nothing new.
    await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "hello" });
    await settleTree(body.threadId);
    expect(await registry(body.threadId)).toHaveLength(1);
  });
});

describe("optional branches", () => {
  it("are offered only when their env flag is true, 1 or yes", async () => {
    fake.setScript([{ respond: { content: "ok" } }]);
    for (const [flag, offered] of [["yes", true], ["TRUE", true], [" 1 ", true], ["no", false], ["", false]] as const) {
      fake.clearRequests();
      const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss", env: flag ? { ENABLE_OPT: flag } : {} });
      await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "hi" });
      await settleTree(body.threadId);
      const names = fake.getRequests()[0]!.tools!.map((x: any) => x.function.name);
      expect(names.includes("opt_duo")).toBe(offered);
    }
  });
});

describe("scoped variable bootstrap", () => {
  it("returns subagent_env_required, lists the variables, boots the child on POST, and forgets the request", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "scoped_duo", message: "Join the channel", attachments: [], name: "Channel bot" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "joined" } }] } },
      { respond: { content: "ok" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    const id = body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "join" });
    await settleTree(id);
    const tool = (await messages(id)).find((m: any) => m.role === "tool");
    expect(tool.tool_status).toBe("error");
    expect(tool.metadata.error_code).toBe("subagent_env_required");
    const data = tool.metadata.error_data;
    expect(data).toMatchObject({ agent: "scoped_duo", required: ["CHANNEL"], missing: ["CHANNEL"], endpoint: `/api/threads/${id}/variables/${data.request_id}` });
    expect(tool.content).toContain(data.endpoint);
    expect(await registry(id)).toEqual([]);

    const listed = await api(t.url, "GET", data.endpoint);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ agent: "scoped_duo", required: ["CHANNEL"], missing: ["CHANNEL"] });
    expect((await api(t.url, "POST", data.endpoint, { env: {} })).status).toBe(400);
    const posted = await api(t.url, "POST", data.endpoint, { env: { CHANNEL: "#general" } });
    expect(posted.status).toBe(201);
    await settleTree(id);
    const [entry] = await registry(id);
    expect(entry).toMatchObject({ reference: posted.body.reference, threadName: "Channel bot" });
    expect((await api(t.url, "GET", `/api/threads/${entry.reference}`)).body.thread.env.CHANNEL).toBe("#general");
    expect((await messages(entry.reference))[0].content).toBe("Join the channel");
    const report = (await messages(id)).find((m: any) => m.subagent_id === entry.reference && m.silent);
    expect(report.content).toContain("has returned the following result:\n\njoined");
    expect((await api(t.url, "POST", data.endpoint, { env: { CHANNEL: "#again" } })).status).toBe(404);
    expect((await api(t.url, "GET", data.endpoint)).status).toBe(404);
  });
});

describe("scoped variable bootstrap: the request survives a spawn that fails", () => {
  it("a POST whose spawn fails validation is a 400 and leaves the request open; a later POST boots the child once", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "scoped_duo", message: "Read the brief", attachments: ["/attachments/late.txt"], name: "Late" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "read" } }] } },
      { respond: { content: "ok" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    const id = body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "start" });
    await settleTree(id);
    const { endpoint } = (await messages(id)).find((m: any) => m.role === "tool").metadata.error_data;
    const failed = await api(t.url, "POST", endpoint, { env: { CHANNEL: "#late" } });
    expect(failed.status).toBe(400);
    expect(failed.body.error.message).toContain("/attachments/late.txt");
    expect((await api(t.url, "GET", endpoint)).status).toBe(200);
    expect(await registry(id)).toEqual([]);
    await fetch(`${t.url}/api/threads/${id}/fs/attachments/late.txt`, { method: "POST", body: "LATE BYTES", headers: { "content-type": "text/plain" } });
    const posted = await api(t.url, "POST", endpoint, { env: { CHANNEL: "#late" } });
    expect(posted.status).toBe(201);
    await settleTree(id);
    const [entry] = await registry(id);
    expect(entry.reference).toBe(posted.body.reference);
    expect(await (await fetch(`${t.url}/api/threads/${entry.reference}/fs/attachments/late.txt`)).text()).toBe("LATE BYTES");
    expect((await api(t.url, "POST", endpoint, { env: { CHANNEL: "#late" } })).status).toBe(404);
    expect(await registry(id)).toHaveLength(1);
  });
});

describe("a three-level tree", () => {
  it("parent → blocking manager → blocking worker: each result reaches its parent exactly once", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "mid_duo", arguments: { task: "Organise the work" } }] } },
      { when: { system_contains: manager, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Do the work" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "work done" } }] } },
      { when: { system_contains: manager, last_role: "tool" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "organised: work done" } }] } },
      { when: { system_contains: boss }, respond: { content: "All done." } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "go" });
    await settleTree(body.threadId);
    const [mid] = await registry(body.threadId);
    const [leaf] = await registry(mid.reference);
    expect(leaf.status).toBe("terminated");
    const midTool = (await messages(mid.reference)).filter((m: any) => m.role === "tool" && m.name === "worker_duo");
    expect(midTool.map((m: any) => m.content)).toEqual([`work done\n\nReference: ${leaf.reference}`]);
    const top = (await messages(body.threadId)).filter((m: any) => m.role === "tool");
    expect(top.map((m: any) => m.content)).toEqual([`organised: work done\n\nReference: ${mid.reference}`]);
    expect((await messages(body.threadId)).at(-1).content).toBe("All done.");
  });
});

describe("immediate, recursively and after a handoff", () => {
  it("a child whose prompt has an immediate subagent starts its own child when it activates", async () => {
    fake.setScript([{ respond: { content: "ok" } }]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "nest_boss" });
    await settleTree(body.threadId);
    const [child] = await registry(body.threadId);
    expect(child).toMatchObject({ name: "nest_duo", resumable: true });
    const [grandchild] = await registry(child.reference);
    // With nothing to do it waits, and its registry entry says so (no entry stays "running" forever).
    expect(grandchild).toMatchObject({ name: "bg_duo", status: "idle" });
    expect(fake.getRequests()).toHaveLength(0);
  });

  it("a handoff to a prompt with an immediate subagent spawns it before the new prompt's first step", async () => {
    fake.setScript([
      { when: { system_contains: "You are the reception." }, respond: { tool_calls: [{ name: "nest_desk", arguments: {} }] } },
      { when: { system_contains: "You are the nest boss." }, respond: { content: "The nest desk is here." } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "handoff_front" });
    expect(await registry(body.threadId)).toEqual([]);
    await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "please hand me over" });
    await settleTree(body.threadId);
    const reg = await registry(body.threadId);
    expect(reg.map((r: any) => r.name)).toEqual(["nest_duo"]);
    // The child existed before the new prompt's first step: that request already lists it.
    const deskRequest = fake.getRequests().find((r) => String(r.messages[0]!.content).includes("nest boss"))!;
    expect(JSON.stringify(deskRequest.messages)).toContain(reg[0].reference);
  });
});
