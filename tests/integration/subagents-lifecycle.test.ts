import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm, type Rule as ScriptRule } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";
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

const boss = "You are the resumable boss.";
const worker = "You are the child worker.";

const settleTree = (id: string) => settleTreeAt(t.url, id);
const messages = (id: string) => messagesAt(t.url, id);
const registry = (id: string) => registryAt(t.url, id);
const toolResults = (id: string) => toolResultsAt(t.url, id);
const events = async (id: string) => (await t.app.persistence.events.after(id, 0, 10_000)).map((e) => e.event as any);
const put = (id: string, p: string, body: string) => fetch(`${t.url}/api/threads/${id}/fs${p}`, { method: "POST", body, headers: { "content-type": "text/plain" } });
const read = async (id: string, p: string) => (await fetch(`${t.url}/api/threads/${id}/fs${p}`)).text();
const seen = (pred: (r: any) => boolean) => waitFor(async () => fake.getRequests().some(pred), 15_000);
const lastText = (r: any) => String(r.messages.at(-1)?.content ?? "");
async function newThread(agent: string, env?: Record<string, string>) {
  return (await api(t.url, "POST", "/api/threads", { agent_id: agent, env })).body.threadId as string;
}
const say = (id: string, content: string) => api(t.url, "POST", `/api/threads/${id}/messages`, { content });

describe("resumable + blocking", () => {
  it("create and message each wait for the child's report; re-activating the parent neither re-sends nor trips maxInstances", async () => {
    const script = (ref: string): ScriptRule[] => [
      { when: { system_contains: boss, last_contains: "create" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "blk_duo", message: "Start the log", attachments: ["/attachments/brief.txt"], name: "Logger" } }] } },
      { when: { system_contains: boss, last_contains: "follow up" }, times: 1, respond: { tool_calls: [{ name: "subagent_message", arguments: { referenceId: ref, message: "Add the figures", attachments: ["/attachments/brief.txt"] } }] } },
      { when: { system_contains: worker, last_contains: "Start the log" }, times: 1, delay_ms: 1500, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Log started" } }] } },
      { when: { system_contains: worker, last_contains: "Add the figures" }, times: 1, respond: { tool_calls: [{ name: "write_note", arguments: { path: "/attachments/out.txt", text: "OUT BYTES" } }] } },
      { when: { system_contains: worker, last_role: "tool" }, times: 1, delay_ms: 1500, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Figures added", files: ["/attachments/out.txt"] } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ];
    fake.setScript(script("?"));
    const id = await newThread("res_boss");
    await put(id, "/attachments/brief.txt", "BRIEF BYTES");
    await put(id, "/attachments/out.txt", "PARENT'S OWN OUT");
    await say(id, "create a logger");
    await seen((r) => String(r.messages[0].content).includes(worker) && lastText(r).includes("Start the log"));
    await say(id, "nudge while it blocks"); // re-activates the parent while its subagent_create waits
    await settleTree(id);

    const [entry] = await registry(id);
    expect(entry).toMatchObject({ name: "blk_duo", resumable: true, blocking: true, threadName: "Logger", status: "idle" });
    expect(await registry(id)).toHaveLength(1);
    expect(await toolResults(id)).toEqual([`subagent_create:success:Log started\n\nReference: ${entry.reference}`]);

    fake.setScript(script(entry.reference));
    await say(id, "follow up");
    await seen((r) => String(r.messages[0].content).includes(worker) && r.messages.at(-1)?.role === "tool");
    await say(id, "nudge again"); // re-activates the parent while its subagent_message waits
    await settleTree(id);

    const results = await toolResults(id);
    expect(results).toHaveLength(2);
    expect(results[1]).toBe(
      `subagent_message:success:Figures added\n\nThe subagent also returned the following attachment(s):\n\n/attachments/out-2.txt\n\nReference: ${entry.reference}`,
    );
    expect(await read(id, "/attachments/out-2.txt")).toBe("OUT BYTES");
    expect(await read(id, "/attachments/out.txt")).toBe("PARENT'S OWN OUT");
    // Each parent message reached the child exactly once, with its attachment copied to a new child-local path.
    const fromParent = (await messages(entry.reference)).filter((m: any) => m.role === "user" && m.side === null);
    expect(fromParent.map((m: any) => m.content)).toEqual(["Start the log", "Add the figures"]);
    expect(fromParent.map((m: any) => m.attachments.map((a: any) => a.path))).toEqual([["/attachments/brief.txt"], ["/attachments/brief-2.txt"]]);
    expect(await read(entry.reference, "/attachments/brief-2.txt")).toBe("BRIEF BYTES");
    expect((await api(t.url, "GET", `/api/threads/${entry.reference}`)).body.thread.status).toBe("idle");
    const completed = (await events(id)).filter((e) => e.type === "tool.completed").map((e) => `${e.name}:${e.status}`);
    expect(completed).toEqual(["subagent_create:success", "subagent_message:success"]);
  });

  it("a blocking child's result is redacted with the parent's secrets before the parent stores or sends it", async () => {
    const CANARY = "canary-blocking-result-9d2f";
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "blk_duo", message: "Leak it", attachments: [], name: "Leaker" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: `the token is ${CANARY}` } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const id = await newThread("res_boss", { BOSS_TOKEN: CANARY });
    await say(id, "go");
    await settleTree(id);
    const [entry] = await registry(id);
    expect(await toolResults(id)).toEqual([`subagent_create:success:the token is ••••\n\nReference: ${entry.reference}`]);
    const bossRequests = fake.getRequests().filter((r) => String(r.messages[0]!.content).includes(boss));
    expect(bossRequests).toHaveLength(2);
    expect(JSON.stringify([bossRequests, await messages(id), await events(id)])).not.toContain(CANARY);
  });
});

describe("failures with attachments, status, and addressing", () => {
  it("a non-blocking child's failure arrives as the exact queued text, with its attachments copied to new parent-local paths", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "bg_duo", arguments: { task: "Plain task" } }, { name: "bg_duo", arguments: { task: "Filed task" } }] } },
      { when: { system_contains: worker, last_contains: "Plain task" }, respond: { tool_calls: [{ name: "fail_work", arguments: { reason: "No luck" } }] } },
      { when: { system_contains: worker, last_contains: "Filed task" }, times: 1, respond: { tool_calls: [{ name: "write_note", arguments: { path: "/attachments/partial.txt", text: "PARTIAL BYTES" } }] } },
      { when: { system_contains: worker, last_role: "tool" }, respond: { tool_calls: [{ name: "fail_work", arguments: { reason: "Only partly done", files: ["/attachments/partial.txt"] } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const id = await newThread("res_boss");
    await put(id, "/attachments/partial.txt", "MINE");
    await say(id, "start both");
    await settleTree(id);
    const [plain, filed] = await registry(id);
    expect([plain.status, filed.status]).toEqual(["failed", "failed"]);
    const reports = (await messages(id)).filter((m: any) => m.silent && m.subagent_id);
    const byRef = new Map(reports.map((m: any) => [m.subagent_id, m]));
    expect(reports).toHaveLength(2);
    expect(byRef.get(plain.reference).content).toBe(`Subagent (reference: ${plain.reference}) has reported a failure:\n\nNo luck`);
    expect(byRef.get(filed.reference).content).toBe(
      `Subagent (reference: ${filed.reference}) has reported a failure:\n\nOnly partly done\n\nThe subagent also returned the following attachment(s):\n\n/attachments/partial-2.txt`,
    );
    expect(byRef.get(filed.reference).attachments.map((a: any) => a.path)).toEqual(["/attachments/partial-2.txt"]);
    expect(await read(id, "/attachments/partial-2.txt")).toBe("PARTIAL BYTES");
    expect(await read(id, "/attachments/partial.txt")).toBe("MINE");
  });

  it("sessionStatus shows in GET /api/threads/:id/subagents while the child keeps working", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "bg_duo", arguments: { task: "Long job" } }] } },
      { when: { system_contains: worker, last_contains: "Long job" }, times: 1, respond: { tool_calls: [{ name: "report_status", arguments: { status: "halfway there" } }] } },
      { when: { system_contains: worker, last_role: "tool" }, times: 1, delay_ms: 2000, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "done" } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const id = await newThread("res_boss");
    await say(id, "go");
    const entry = await waitFor(async () => (await registry(id)).find((e: any) => e.status === "halfway there"));
    expect((await api(t.url, "GET", `/api/threads/${entry.reference}`)).body.thread.status).toBe("running");
    await settleTree(id);
    expect((await registry(id))[0].status).toBe("terminated");
  });

  it("subagent_message addresses only resumable children", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_contains: "start" }, times: 1, respond: { tool_calls: [{ name: "bg_duo", arguments: { task: "One-off" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "done" } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const id = await newThread("res_boss");
    await say(id, "start");
    await settleTree(id);
    const [entry] = await registry(id);
    fake.setScript([
      { when: { system_contains: boss, last_contains: "message" }, times: 1, respond: { tool_calls: [{ name: "subagent_message", arguments: { referenceId: entry.reference, message: "more", attachments: [] } }] } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    await say(id, "message it");
    await settleTree(id);
    expect((await toolResults(id)).at(-1)).toBe(`subagent_message:error:subagent_message: subagent ${entry.reference} (bg_duo) is not resumable and cannot receive messages.`);
  });
});

describe("optional branches and termination", () => {
  it("a disabled optional branch cannot be created or invoked; enabled, it can", async () => {
    const script: ScriptRule[] = [
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "opt_duo", message: "Help", attachments: [], name: "Opt" } }] } },
      { when: { system_contains: "You are the boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "opt_duo", arguments: { task: "Help" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "helped" } }] } },
      { respond: { content: "ok" } },
    ];
    fake.setScript(script);
    const off = await newThread("res_boss", { ENABLE_OPT: "no" });
    await say(off, "create it");
    await settleTree(off);
    const createTool = fake.getRequests()[0]!.tools!.find((x: any) => x.function.name === "subagent_create") as any;
    expect(createTool.function.parameters.properties.agent.enum).toEqual(["blk_duo"]);
    expect(await toolResults(off)).toEqual(["subagent_create:error:subagent_create: agent must be one of blk_duo."]);
    const direct = await newThread("boss");
    await say(direct, "call it");
    await settleTree(direct);
    expect((await toolResults(direct))[0]).toMatch(/^opt_duo:error:Tool opt_duo is not available at this step\./);
    expect([...(await registry(off)), ...(await registry(direct))]).toEqual([]);

    fake.setScript(script);
    const on = await newThread("res_boss", { ENABLE_OPT: " YES " });
    await say(on, "create it");
    await settleTree(on);
    expect((await registry(on)).map((e: any) => e.name)).toEqual(["opt_duo"]);
  });

  it("terminating a blocking child answers the parent's waiting call with an error, and the parent goes on", async () => {
    fake.setScript([
      { when: { system_contains: "You are the boss.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Take forever" } }] } },
      { when: { system_contains: worker }, delay_ms: 8000, respond: { content: "too late" } },
      { when: { system_contains: "You are the boss.", last_role: "tool" }, times: 1, respond: { content: "The helper was stopped." } },
      { respond: { content: "still here" } },
    ]);
    const id = await newThread("boss");
    await say(id, "go");
    await seen((r) => String(r.messages[0].content).includes(worker));
    const [entry] = await registry(id);
    expect((await api(t.url, "POST", `/api/threads/${entry.reference}/terminate`)).status).toBeLessThan(300);
    await settleTree(id);
    const msgs = await messages(id);
    const tool = msgs.find((m: any) => m.role === "tool");
    expect(tool).toMatchObject({
      tool_status: "error",
      content: `Subagent (reference: ${entry.reference}) was terminated before it returned a result.\n\nReference: ${entry.reference}`,
    });
    expect(msgs.at(-1).content).toBe("The helper was stopped.");
    expect((await registry(id))[0].status).toBe("terminated");
    // A later activation of the parent does not wait for the terminated child again.
    await say(id, "anything else?");
    await settleTree(id);
    expect((await messages(id)).at(-1).content).toBe("still here");
    expect((await events(id)).filter((e) => e.type === "tool.completed").map((e) => e.status)).toEqual(["error"]);
  });
});
