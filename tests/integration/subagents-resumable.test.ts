import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";
import { settleTreeAt, messagesAt, registryAt, toolResultsAt } from "../helpers/thread-queries";

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
const checker = "You are the child checker.";

const settleTree = (id: string) => settleTreeAt(t.url, id);
const messages = (id: string) => messagesAt(t.url, id);
const registry = (id: string) => registryAt(t.url, id);
const toolResults = (id: string) => toolResultsAt(t.url, id);
async function post(id: string, content: string) {
  await api(t.url, "POST", `/api/threads/${id}/messages`, { content });
  await settleTree(id);
}

describe("resumable subagents: subagent_create and subagent_message", () => {
  it("creates named instances, keeps them addressable, lists them in the registry message, and enforces name and maxInstances", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_contains: "create one" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "res_duo", message: "Watch the inbox", attachments: [], name: "Inbox watcher" } }] } },
      { when: { system_contains: boss, last_contains: "no name" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "res_duo", message: "x", attachments: [], name: "  " } }] } },
      { when: { system_contains: boss, last_contains: "two more" }, times: 1, respond: { tool_calls: [
        { name: "subagent_create", arguments: { agent: "res_duo", message: "second", attachments: [], name: "Second" } },
        { name: "subagent_create", arguments: { agent: "res_duo", message: "third", attachments: [], name: "Third" } },
      ] } },
      { when: { system_contains: worker, last_contains: "Watch the inbox" }, times: 1, respond: { tool_calls: [{ name: "report_status", arguments: { status: "watching" } }] } },
      { when: { system_contains: worker, last_role: "tool", any_contains: "status noted" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Inbox is empty" } }] } },
      { when: { system_contains: worker, last_contains: "Check again" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Still empty" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "done" } }] } },
      { when: { system_contains: boss, last_contains: "message it" }, times: 1, respond: { tool_calls: [{ name: "subagent_message", arguments: { referenceId: "REF", message: "Check again", attachments: [] } }] } },
      { when: { system_contains: boss }, respond: { content: "noted" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    const id = body.threadId;
    await post(id, "create one");
    const [first] = await registry(id);
    expect(first).toMatchObject({ name: "res_duo", resumable: true, blocking: false, threadName: "Inbox watcher", status: "idle", parentCommunication: "implicit" });
    expect((await api(t.url, "GET", `/api/threads/${first.reference}`)).body.thread.status).not.toBe("terminated");
    expect((await toolResults(id))[0]).toBe(`subagent_create:success:The subagent was initiated successfully. Reference: ${first.reference}`);
    const report = (await messages(id)).find((m: any) => m.silent && m.subagent_id === first.reference);
    expect(report.content).toBe(`Subagent (reference: ${first.reference}) has returned the following result:\n\nInbox is empty`);
    // The parent's next request lists the live instance right after the prompt, and offers subagent_message.
    const afterReport = fake.getRequests().filter((r) => String(r.messages[0]!.content).includes(boss)).at(-1)!;
    expect(afterReport.messages[1]!.role).toBe("system");
    expect(afterReport.messages[1]!.content).toContain(`reference: ${first.reference}; agent: res_duo; instance: Inbox watcher; status: `);
    expect(afterReport.tools!.map((x: any) => x.function.name)).toEqual(expect.arrayContaining(["subagent_create", "subagent_message"]));
    // The status reported through sessionStatus reached the parent's registry before the completion.
    const events = (await t.app.persistence.events.after(id, 0, 10_000)).map((e) => e.event);
    expect(events.some((e: any) => e.type === "subagent.updated" && e.status === "watching")).toBe(true);

    await post(id, "no name please");
    expect((await toolResults(id)).at(-1)).toMatch(/subagent_create:error:subagent_create: `name` is required/);

    fake.setScript(fake.getScript().map((r) => (JSON.stringify(r).includes("REF") ? { ...r, respond: { tool_calls: [{ name: "subagent_message", arguments: { referenceId: first.reference, message: "Check again", attachments: [] } }] } } : r)) as any);
    await post(id, "message it");
    expect((await toolResults(id)).at(-1)).toBe(`subagent_message:success:Message sent to subagent ${first.reference}.`);
    const childMsgs = await messages(first.reference);
    expect(childMsgs.filter((m: any) => m.role === "user" && m.side === null).map((m: any) => m.content)).toEqual(["Watch the inbox", "Check again"]);
    const reports = (await messages(id)).filter((m: any) => m.silent && m.subagent_id === first.reference);
    expect(reports.map((m: any) => m.content.split("\n\n")[1])).toEqual(["Inbox is empty", "Still empty"]);

    await post(id, "two more");
    const results = await toolResults(id);
    expect(results.at(-2)).toMatch(/^subagent_create:success:The subagent was initiated successfully/);
    expect(results.at(-1)).toMatch(/^subagent_create:error:Cannot create another res_duo: the limit of 2 live instances is reached\. Use subagent_message with the reference of an existing instance instead: /);
    const reg = await registry(id);
    expect(reg).toHaveLength(2);
    expect(new Set(reg.map((r: any) => r.spawnGroupId)).size).toBe(2);
  });

  it("receives_messages side_b queues parent messages as assistant, so the child's side B acts", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "explicit_duo", message: "Review this", attachments: [], name: "Reviewer" } }] } },
      { when: { system_contains: checker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Reviewed" } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    await post(body.threadId, "review");
    const [entry] = await registry(body.threadId);
    const first = (await messages(entry.reference))[0];
    expect(first).toMatchObject({ role: "assistant", content: "Review this" });
    expect(fake.getRequests().some((r) => String(r.messages[0]!.content).includes(checker))).toBe(true);
    expect(fake.getRequests().some((r) => String(r.messages[0]!.content).includes(worker))).toBe(false);
    // Explicit communication: nothing was queued back to the parent.
    expect((await messages(body.threadId)).filter((m: any) => m.subagent_id)).toEqual([]);
  });
});

describe("explicit escalation", () => {
  it("notifyParent queues a silent message tagged with the child's subagent_id; setStatus updates the registry", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "explicit_duo", message: "Watch", attachments: [], name: "W" } }] } },
      { when: { system_contains: checker, last_role: "user" }, times: 1, respond: { content: "go on" } },
      { when: { system_contains: worker, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "tell_parent", arguments: { note: "Something important happened" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "bye" } }] } },
      { when: { system_contains: checker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "bye" } }] } },
      { when: { system_contains: boss }, respond: { content: "thanks" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    await post(body.threadId, "watch");
    const [entry] = await registry(body.threadId);
    const notes = (await messages(body.threadId)).filter((m: any) => m.subagent_id === entry.reference);
    expect(notes.map((m: any) => [m.role, m.silent, m.content])).toEqual([["user", true, "Something important happened"]]);
    const events = (await t.app.persistence.events.after(body.threadId, 0, 10_000)).map((e) => e.event as any);
    expect(events.some((e) => e.type === "subagent.updated" && e.status === "told parent")).toBe(true);
  });
});

describe("terminate across threads", () => {
  it("terminating a child marks the parent's registry entry; messaging it errors; terminating the parent terminates descendants", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_contains: "make" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "res_duo", message: "Stay", attachments: [], name: "A" } }, { name: "subagent_create", arguments: { agent: "explicit_duo", message: "Stay", attachments: [], name: "B" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "idle now" } }] } },
      { when: { system_contains: checker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "idle now" } }] } },
      { when: { system_contains: boss, last_contains: "ping" }, times: 1, respond: { tool_calls: [{ name: "subagent_message", arguments: { referenceId: "PLACEHOLDER", message: "hi", attachments: [] } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    const id = body.threadId;
    await post(id, "make two");
    const [a, b] = await registry(id);
    expect(a.spawnGroupId).toBeTruthy();
    expect(a.spawnGroupId).toBe(b.spawnGroupId);
    await api(t.url, "POST", `/api/threads/${a.reference}/terminate`);
    expect((await registry(id)).find((r: any) => r.reference === a.reference).status).toBe("terminated");
    fake.setScript(fake.getScript().map((r) => (JSON.stringify(r).includes("PLACEHOLDER") ? { ...r, respond: { tool_calls: [{ name: "subagent_message", arguments: { referenceId: a.reference, message: "hi", attachments: [] } }] } } : r)) as any);
    await post(id, "ping");
    expect((await toolResults(id)).at(-1)).toMatch(/subagent_message:error:subagent_message: subagent .* is terminated/);
    expect((await api(t.url, "POST", `/api/threads/${a.reference}/messages`, { content: "hello?" })).status).toBe(409);
    await api(t.url, "POST", `/api/threads/${id}/terminate`);
    expect((await api(t.url, "GET", `/api/threads/${b.reference}`)).body.thread.status).toBe("terminated");
  });
});
