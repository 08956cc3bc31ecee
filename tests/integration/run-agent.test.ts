import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
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

const surface = "You exercise the extension surface.";
const messages = async (id: string) => (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages;

async function start(content: string) {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "surface" });
  await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content });
  return body.threadId as string;
}

describe("state.runAgent", () => {
  it("from a tool: the named ai_human agent takes over the thread at the next step, on the same history", async () => {
    fake.setScript([
      { when: { system_contains: surface, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "run_agent", arguments: { agent: "chat" } }] } },
      { when: { system_contains: "You are a test assistant for Acme." }, respond: { content: "chat agent here" } },
    ]);
    const id = await start("please hand me over");
    const thread = await waitForThread(t.url, id);
    expect(thread.agent_id).toBe("chat");
    const msgs = await messages(id);
    expect(msgs.find((m: any) => m.role === "tool")).toMatchObject({ name: "run_agent", tool_status: "success", content: "running chat" });
    expect(msgs.at(-1)).toMatchObject({ role: "assistant", content: "chat agent here" });
    // The new agent sees the thread's history (chat includes it).
    const last = fake.getRequests().at(-1)!;
    expect(JSON.stringify(last.messages)).toContain("please hand me over");
  });

  it("from an effect on an idle thread: a dual_ai agent's session starts at side A and runs to its session stop", async () => {
    fake.setScript([
      { when: { system_contains: surface, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "schedule_agent", arguments: { agent: "duo", delay: 300 } }] } },
      { when: { system_contains: surface, last_role: "tool" }, times: 1, respond: { content: "scheduled" } },
      { when: { system_contains: "You are the worker." }, respond: { content: "the work" } },
      { when: { system_contains: "You are the reviewer." }, respond: { tool_calls: [{ name: "approve", arguments: { summary: "fine" } }] } },
    ]);
    const id = await start("do it later");
    await waitForThread(t.url, id);
    const thread = await waitFor(async () => {
      const th = (await api(t.url, "GET", `/api/threads/${id}`)).body.thread;
      return th.agent_id === "duo" && th.status === "idle" && th.session.ended ? th : undefined;
    });
    expect(thread.session.reason).toBe("session_stop");
    const msgs = await messages(id);
    // Stored roles are authorship: side B's messages are `user` messages.
    const turns = msgs.filter((m: any) => m.role === "assistant" || (m.role === "user" && m.side === "b"));
    expect(turns.map((m: any) => [m.side, m.content ?? m.tool_calls?.[0]?.function.name])).toEqual([
      ["a", "schedule_agent"],
      ["a", "scheduled"],
      ["a", "the work"],
      ["b", "approve"],
    ]);
  });

  it("from a hook: the hook's runAgent hands the thread over after the tool call", async () => {
    fake.setScript([
      { when: { system_contains: "You hand over from a hook.", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "handover" } }] } },
      { when: { system_contains: "You are a test assistant for Acme." }, respond: { content: "chat took over" } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "handing" });
    await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "go" });
    const thread = await waitForThread(t.url, body.threadId);
    expect(thread.agent_id).toBe("chat");
    expect((await messages(body.threadId)).at(-1)).toMatchObject({ role: "assistant", content: "chat took over" });
  });

  it("names an unknown agent in a clear error", async () => {
    fake.setScript([
      { when: { system_contains: surface, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "run_agent", arguments: { agent: "nope" } }] } },
      { respond: { content: "ok" } },
    ]);
    const id = await start("run nope");
    await waitForThread(t.url, id);
    const tool = (await messages(id)).find((m: any) => m.role === "tool");
    expect(tool.tool_status).toBe("error");
    expect(tool.content).toMatch(/runAgent: agent "nope" is not defined\. Defined agents: .*chat.*\. Pass one of these names, or add agents\/agents\/nope\.ts\./);
    expect((await api(t.url, "GET", `/api/threads/${id}`)).body.thread.agent_id).toBe("surface");
  });
});
