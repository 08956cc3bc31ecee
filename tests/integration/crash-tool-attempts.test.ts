import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
import { readSse } from "../helpers/sse";
import { api, fixtureAgents, waitFor, waitForThread } from "../helpers/test-app";

let fake: FakeLlm;
let server: ServerProcess;
let tmp: string;

beforeAll(async () => {
  fake = await startFakeLlm();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-attempts-"));
});
afterAll(async () => {
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});
afterEach(async () => server?.stop());

const messages = async (id: string) => (await api(server.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];
/** The lines a side-effect tool appended (outside the database: they survive the kill). */
const runs = (log: string) => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);

/** Start a thread whose first step calls `tool`, kill the server while the tool runs (after its side effect), restart. */
async function killDuringTool(tool: "side_effect" | "once_only", log: string): Promise<string> {
  fake.clearRequests();
  fake.setScript([
    { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: tool, arguments: { log, ms: 3000 } }] } },
    { when: { last_role: "tool" }, respond: { content: "noted" } },
  ]);
  server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
  await server.start();
  const id = (await api(server.url, "POST", "/api/threads", { agent_id: "side_effects" })).body.threadId;
  await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "go" });
  await waitFor(async () => runs(log).length === 1, 15_000);
  await server.kill();
  await server.start();
  await waitForThread(server.url, id, ["idle", "terminated"], 30_000);
  return id;
}

describe("tool calls interrupted by a crash", () => {
  it("a re-run tool sees the same state.execution.toolCallId with attempt 2, and its second tool.started says attempt 2", async () => {
    const log = path.join(tmp, "rerun.log");
    const id = await killDuringTool("side_effect", log);
    const [first, second] = runs(log);
    expect(runs(log)).toHaveLength(2);
    expect(first.attempt).toBe(1);
    expect(second.attempt).toBe(2);
    expect(first.toolCallId).toBeTruthy();
    expect(second.toolCallId).toBe(first.toolCallId);
    const msgs = await messages(id);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(msgs[2].content).toBe("done at attempt 2");
    expect(msgs[2].tool_call_id).toBe(first.toolCallId);
    // The event log (replayed on SSE from the start) tells the two starts apart.
    const events = await readSse(`${server.url}/api/threads/${id}/stream`, {
      lastEventId: 0,
      until: (ev) => ev.some((e) => e.data.type === "thread.stopped"),
    });
    const started = events.filter((e) => e.data.type === "tool.started").map((e) => [e.data.toolCallId, e.data.attempt]);
    expect(started).toEqual([
      [first.toolCallId, 1],
      [first.toolCallId, 2],
    ]);
    // Its result says which run produced it (the chat and the Inspector show "re-run after a restart").
    const completed = events.filter((e) => e.data.type === "tool.completed").map((e) => [e.data.toolCallId, e.data.attempt]);
    expect(completed).toEqual([[first.toolCallId, 2]]);
  }, 90_000);

  it("an onInterrupt: 'fail' tool is not run again: its result is a tool error with error_code 'interrupted'", async () => {
    const log = path.join(tmp, "once.log");
    const id = await killDuringTool("once_only", log);
    expect(runs(log)).toEqual([{ tool: "once_only", toolCallId: expect.any(String), attempt: 1 }]);
    const msgs = await messages(id);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(msgs[2].tool_status).toBe("error");
    expect(msgs[2].metadata).toMatchObject({ error_code: "interrupted" });
    expect(msgs[2].content).toContain("not run again");
    // The model was told, and answered on.
    const last = fake.getRequests().at(-1)!;
    expect(JSON.stringify(last.messages.at(-1))).toContain("interrupted by a server restart");
  }, 90_000);
});

describe("request log across a crash", () => {
  it("a request cut off by a kill keeps its row (pending, then interrupted on resume): /logs and /cost count every request the model server saw", async () => {
    fake.clearRequests();
    fake.setScript([
      { when: { last_role: "user" }, times: 1, delay_ms: 10_000, respond: { content: "never delivered" } },
      { respond: { content: "answer after restart" } },
    ]);
    server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
    await server.start();
    const id = (await api(server.url, "POST", "/api/threads", { agent_id: "side_effects" })).body.threadId;
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "go" });
    await waitFor(async () => fake.getRequests().length === 1, 15_000);
    // Written as the request was sent, before any answer.
    const before = (await api(server.url, "GET", `/api/threads/${id}/logs`)).body.logs as any[];
    expect(before.map((l) => l.status)).toEqual(["pending"]);
    expect(before[0].request.messages.at(-1)).toMatchObject({ role: "user", content: "go" });
    await server.kill();
    await server.start();
    await waitForThread(server.url, id, ["idle"], 30_000);
    const logs = (await api(server.url, "GET", `/api/threads/${id}/logs`)).body.logs as any[];
    expect(logs.map((l) => l.status)).toEqual(["interrupted", "success"]);
    expect(logs[0].error).toContain("cut off by a restart");
    expect(logs[0].finished_at).toBeTruthy();
    expect(logs.length).toBe(fake.getRequests().length);
    const cost = (await api(server.url, "GET", `/api/threads/${id}/cost`)).body;
    expect(cost.own.requests).toBe(2);
  }, 90_000);
});
