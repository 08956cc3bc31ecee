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
const checker = "You are the child checker.";

/** Wait until the thread and every descendant have settled. */
const settleTree = (id: string) => settleTreeAt(t.url, id);
const messages = (id: string) => messagesAt(t.url, id);
const registry = (id: string) => registryAt(t.url, id);

async function start(agent: string, content: string, env?: Record<string, string>) {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: agent, env });
  await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content });
  return body.threadId as string;
}

describe("blocking, non-resumable: the parent waits; the child's result is its tool result; the child ends", () => {
  it("maps message, attachments and name, copies attachments both ways, and returns the result with the reference", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Write the summary", title: "Summary writer", files: ["/attachments/brief.txt"] } }] } },
      { when: { system_contains: worker, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "write_note", arguments: { path: "/attachments/summary.txt", text: "THE SUMMARY" } }] } },
      { when: { system_contains: worker, last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Summary written", files: ["/attachments/summary.txt"] } }] } },
      { when: { system_contains: boss, last_role: "tool" }, respond: { content: "Your summary is ready." } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "boss" });
    const id = body.threadId;
    await fetch(`${t.url}/api/threads/${id}/fs/attachments/brief.txt`, { method: "POST", body: "BRIEF BYTES", headers: { "content-type": "text/plain" } });
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "summarize it" });
    await settleTree(id);

    const [entry] = await registry(id);
    expect(entry).toMatchObject({ name: "worker_duo", resumable: false, blocking: true, threadName: "Summary writer", status: "terminated", parentCommunication: "implicit", description: "Do a piece of work and report back" });
    const child = (await api(t.url, "GET", `/api/threads/${entry.reference}`)).body.thread;
    expect(child).toMatchObject({ parent_id: id, agent_id: "worker_duo", status: "terminated", tags: ["name:Summary writer"] });
    expect(await (await fetch(`${t.url}/api/threads/${child.id}/fs/attachments/brief.txt`)).text()).toBe("BRIEF BYTES");
    const childFirst = (await messages(child.id))[0];
    expect(childFirst).toMatchObject({ role: "user", content: "Write the summary" });
    expect(childFirst.attachments.map((a: any) => a.path)).toEqual(["/attachments/brief.txt"]);

    const msgs = await messages(id);
    const result = msgs.find((m: any) => m.role === "tool" && m.name === "worker_duo");
    expect(result.content).toBe(
      `Summary written\n\nThe subagent also returned the following attachment(s):\n\n/attachments/summary.txt\n\nReference: ${child.id}`,
    );
    expect(result.tool_status).toBe("success");
    expect(await (await fetch(`${t.url}/api/threads/${id}/fs/attachments/summary.txt`)).text()).toBe("THE SUMMARY");
    expect(msgs.at(-1).content).toBe("Your summary is ready.");

    const offered = fake.getRequests()[0]!.tools!.find((x: any) => x.function.name === "worker_duo") as any;
    expect(Object.keys(offered.function.parameters.properties)).toEqual(expect.arrayContaining(["task", "title", "files"]));
    expect(fake.getRequests()[0]!.tools!.map((x: any) => x.function.name)).not.toContain("opt_duo");
  });

  it("a child that fails reports the failure as the tool result", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Impossible" } }] } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "fail_work", arguments: { reason: "It cannot be done" } }] } },
      { when: { system_contains: boss }, respond: { content: "Sorry." } },
    ]);
    const id = await start("boss", "try");
    await settleTree(id);
    const [entry] = await registry(id);
    expect(entry.status).toBe("failed");
    const result = (await messages(id)).find((m: any) => m.role === "tool");
    expect(result).toMatchObject({ tool_status: "error", content: `It cannot be done\n\nReference: ${entry.reference}` });
  });

  it("a child that reaches its turn cap without a terminal call reports a failure saying so", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "worker_duo", arguments: { task: "Chat forever" } }] } },
      { when: { system_contains: worker }, respond: { content: "still working" } },
      { when: { system_contains: checker }, respond: { content: "keep going" } },
      { when: { system_contains: boss }, respond: { content: "ok" } },
    ]);
    const id = await start("boss", "go");
    await settleTree(id);
    const result = (await messages(id)).find((m: any) => m.role === "tool");
    expect(result.tool_status).toBe("error");
    expect(result.content).toMatch(/limit of 2 turns per side \(maxSessionTurns\).*without a successful session stop or fail tool call/);
  });
});

describe("non-blocking, non-resumable: the tool returns at once; the result arrives later as a queued silent message", () => {
  it("uses the exact texts and tags the message with subagent_id and the registry projection", async () => {
    fake.setScript([
      { when: { system_contains: boss, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "bg_duo", arguments: { task: "Research" } }] } },
      { when: { system_contains: boss, last_role: "tool" }, times: 1, respond: { content: "Started the research." } },
      { when: { system_contains: worker }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "Findings: 42" } }] } },
      { when: { system_contains: boss, any_contains: "has returned the following result" }, respond: { content: "The research found 42." } },
    ]);
    const id = await start("boss", "research in the background");
    await settleTree(id);
    const [entry] = await registry(id);
    const msgs = await messages(id);
    const tool = msgs.find((m: any) => m.role === "tool");
    expect(tool.content).toBe(`The subagent was initiated successfully. Reference: ${entry.reference}`);
    const report = msgs.find((m: any) => m.silent && m.subagent_id === entry.reference);
    expect(report).toMatchObject({
      role: "user",
      content: `Subagent (reference: ${entry.reference}) has returned the following result:\n\nFindings: 42`,
      subagent_name: "bg_duo",
      subagent_status: "terminated",
      subagent_resumable: false,
      subagent_blocking: false,
    });
    expect(msgs.at(-1).content).toBe("The research found 42.");
    // state.getMessages() (read here through a thread endpoint) fills the same subagent_* projections.
    const viaState = (await api(t.url, "GET", `/api/threads/${id}/state-messages`)).body;
    const { seq: _seq, side: _side, ...restReport } = report;
    expect(viaState.find((m: any) => m.id === report.id)).toEqual(restReport);
    const visible = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages;
    expect(visible.some((m: any) => m.silent)).toBe(false);
  });
});
