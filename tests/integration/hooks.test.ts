import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

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

async function run(agent: string, ...messages: string[]) {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: agent });
  for (const content of messages) {
    await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content });
    await waitForThread(t.url, body.threadId);
  }
  const msgs = (await api(t.url, "GET", `/api/threads/${body.threadId}/messages?includeSilent=true`)).body.messages;
  return { id: body.threadId as string, msgs };
}
const file = async (id: string, path: string) => (await fetch(`${t.url}/api/threads/${id}/fs${path}`)).text();

describe("hooks fire at their points, in the order listed, the prompt's overriding the agent's", () => {
  it("before_create_message hooks run in order; a throwing hook is logged and skipped; after_create_message sees each message", async () => {
    fake.setScript([{ respond: { content: "Hello" } }]);
    const { id, msgs } = await run("hooked", "hi");
    expect(msgs.map((m: any) => m.content)).toEqual(["hi", "Hello [A] [B]"]);
    expect(await file(id, "/hooks.log")).toBe("created:user\ncreated:assistant\n");
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs).toHaveLength(1);
  });

  it("the agent's hooks apply when the prompt declares none", async () => {
    fake.setScript([{ respond: { content: "Plain" } }]);
    const { msgs } = await run("agent_hooks", "hi");
    expect(msgs.at(-1).content).toBe("Plain [agent]");
  });

  it("filter_messages drops messages before context assembly and keeps tool calls with their results", async () => {
    fake.setScript([
      // (the prefilter hook appends a system message, so rules match on content rather than on the last role)
      { when: { any_contains: "second" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "DROP-CALL" } }] } },
      { when: { any_contains: "second" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "keep" } }] } },
      { respond: { content: "ok" } },
    ]);
    const r = await run("hooked", "first: IGNORE-ME please", "second");
    expect(r.msgs.filter((m: any) => m.role === "tool").map((m: any) => m.content)).toEqual(["echo: DROP-CALL [ok] [stored]", "echo: keep [ok] [stored]"]);
    const last = fake.getRequests().at(-1)!;
    const text = JSON.stringify(last.messages);
    expect(text).not.toContain("IGNORE-ME");
    // The hook dropped the DROP-CALL call but kept its result: the orphan result is left out too.
    expect(text).not.toContain("DROP-CALL");
    const tools = last.messages.filter((m: any) => m.role === "tool");
    expect(tools).toEqual([{ role: "tool", tool_call_id: expect.any(String), content: "echo: keep [ok] [stored]" }]);
    const idx = last.messages.findIndex((m: any) => m.role === "tool");
    expect(last.messages[idx - 1]).toMatchObject({ role: "assistant", tool_calls: [{ id: (tools[0] as any).tool_call_id, function: { name: "echo" } }] });
  });

  it("prefilter_llm_history adjusts the final request", async () => {
    fake.setScript([{ respond: { content: "ok" } }]);
    await run("hooked", "hi");
    expect(fake.getRequests()[0]!.messages.at(-1)).toEqual({ role: "system", content: "Stamp: prefilter ran" });
  });

  it("tool hooks: after_tool_call_success, then before_store_tool_result; after_tool_call_failure recovers", async () => {
    fake.setScript([
      { times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "x" } }, { name: "explode", arguments: {} }] } },
      { respond: { content: "done" } },
    ]);
    const { msgs } = await run("hooked", "go");
    const tools = msgs.filter((m: any) => m.role === "tool");
    expect(tools[0]).toMatchObject({ content: "echo: x [ok] [stored]", tool_status: "success" });
    expect(tools[1]).toMatchObject({ content: "recovered explode: Tool explode failed: kaboom [stored]", tool_status: "success" });
  });

  it("before_update_message transforms the update and after_update_message sees the result", async () => {
    fake.setScript([
      { times: 1, respond: { tool_calls: [{ name: "edit_last", arguments: { content: "rewritten" } }] } },
      { respond: { content: "done" } },
    ]);
    const { id, msgs } = await run("hooked", "original");
    expect(msgs[0].content).toBe("rewritten (edited)");
    expect(await file(id, "/updated.log")).toBe(`updated:${msgs[0].id}:rewritten (edited)`);
  });

  it("the stop tool's content rewrite goes through the update hooks", async () => {
    fake.setScript([{ respond: { tool_calls: [{ name: "echo", arguments: { text: "final words" } }] } }]);
    const { id, msgs } = await run("hooked_stopper", "stop with words");
    const assistant = msgs.find((m: any) => m.role === "assistant");
    expect(assistant.content).toBe("final words (edited)");
    expect(await file(id, "/updated.log")).toBe(`updated:${assistant.id}:final words (edited)`);
    expect((await api(t.url, "GET", `/api/threads/${id}`)).body.thread.stop_reason).toBe("stop_tool");
  });

  it("initial messages go through the create hooks", async () => {
    const created = await api(t.url, "POST", "/api/threads", {
      agent_id: "hooked",
      initial_messages: [
        { role: "user", content: "earlier question" },
        { role: "assistant", content: "earlier answer" },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.threadId;
    const msgs = (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages;
    expect(msgs.map((m: any) => m.content)).toEqual(["earlier question", "earlier answer [A] [B]"]);
    expect(await file(id, "/hooks.log")).toBe("created:user\ncreated:assistant\n");
  });
});
