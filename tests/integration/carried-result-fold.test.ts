/**
 * Where the carried tool result (server/runtime/thread/carry.ts) is stored: with the next step's answer, in one
 * transaction, when the model answers before the request is announced (STEP_ANNOUNCE_AFTER_MS); else on its own while
 * the request is in flight. Each committed transaction of the app is watched for the roles of the messages it appended
 * (the app's own persistence; the runtime runs in this process unless TEST_RUNTIME_THREAD moves it to a thread).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { messagesAt } from "../helpers/thread-queries";
import { api, fixtureAgents, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
const apps: TestApp[] = [];

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", LLM_MAX_RETRIES: "0", ...env } });
  apps.push(t);
  return t;
}

async function chat(t: TestApp, content: string): Promise<string> {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
  expect((await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content })).status).toBe(202);
  return body.threadId;
}

const echo = (text: string) => ({ tool_calls: [{ name: "echo", arguments: { text } }] });

/** The roles of the messages each committed transaction of `t` appended, in commit order. */
function watchAppends(t: TestApp): { batches: string[][]; stop(): void } {
  const p = t.app.persistence;
  const original = p.transaction.bind(p);
  const batches: string[][] = [];
  p.transaction = (async (fn: Parameters<typeof original>[0], opts: Parameters<typeof original>[1]) => {
    const roles: string[] = [];
    const value = await original((tx) => {
      const messages = Object.create(tx.messages) as typeof tx.messages;
      messages.append = (threadId, m) => {
        roles.push(m.role);
        return tx.messages.append(threadId, m);
      };
      return fn({ ...tx, messages });
    }, opts);
    if (roles.length > 0) batches.push(roles);
    return value;
  }) as typeof p.transaction;
  return { batches, stop: () => void (p.transaction = original) };
}

describe.skipIf(process.env.TEST_RUNTIME_THREAD)("the carried tool result", () => {
  it("a model that answers before the request is announced, without text: stored with the answer, in one transaction", async () => {
    // A window no answer of the scripted server misses, however loaded the machine.
    const t = await app({ STEP_ANNOUNCE_AFTER_MS: "10000" });
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: echo("one") },
      { when: { last_contains: "echo: one" }, times: 1, respond: echo("two") },
      { respond: { content: "done" } },
    ]);
    const watch = watchAppends(t);
    let id: string;
    try {
      id = await chat(t, "fold");
      await waitForThread(t.url, id);
    } finally {
      watch.stop();
    }
    // The last answer streams text: its first delta announces the step, and the carried result is stored before it.
    expect(watch.batches).toEqual([["user"], ["assistant"], ["tool", "assistant"], ["tool"], ["assistant"]]);
    const msgs = await messagesAt(t.url, id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ["user", "fold"],
      ["assistant", null],
      ["tool", "echo: one"],
      ["assistant", null],
      ["tool", "echo: two"],
      ["assistant", "done"],
    ]);
    expect(msgs[2]).toMatchObject({ tool_call_id: msgs[1].tool_calls[0].id });
    expect(msgs[4]).toMatchObject({ tool_call_id: msgs[3].tool_calls[0].id });
  });

  it("a model still working when the request is announced: stored on its own while the request is in flight", async () => {
    const t = await app();
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: echo("one") },
      { delay_ms: 1500, respond: { content: "late" } },
    ]);
    const watch = watchAppends(t);
    let id: string;
    try {
      id = await chat(t, "slow");
      await waitFor(async () => fake.getRequests().length === 2);
      // Stored long before the answer comes.
      await waitFor(async () => (await messagesAt(t.url, id)).some((m) => m.role === "tool"), 1000);
      await waitForThread(t.url, id);
    } finally {
      watch.stop();
    }
    expect(watch.batches).toEqual([["user"], ["assistant"], ["tool"], ["assistant"]]);
    expect((await messagesAt(t.url, id)).map((m) => [m.role, m.content])).toEqual([
      ["user", "slow"],
      ["assistant", null],
      ["tool", "echo: one"],
      ["assistant", "late"],
    ]);
  });
});
