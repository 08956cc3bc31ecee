/**
 * A step's answer is stored in an optimistic transaction (`TransactionOptions.optimistic`): on PostgreSQL the thread is
 * taken as this process last saw it, checked instead of read. Here another writer (raw SQL, as another process would)
 * changes the thread while the request is in flight: that transaction fails with `StaleThreadError`, the answer is
 * stored by the next, with the thread read under its lock, once, and the other writer's change is kept. On SQLite the
 * option changes nothing: no transaction fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StaleThreadError } from "@/server/runtime/errors";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { messagesAt } from "../helpers/thread-queries";
import { api, fixtureAgents, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", LLM_MAX_RETRIES: "0" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** The optimistic transactions of the app and how each ended. */
function watchOptimistic(): { outcomes: string[]; stop(): void } {
  const p = t.app.persistence;
  const original = p.transaction.bind(p);
  const outcomes: string[] = [];
  p.transaction = (async (fn, opts) => {
    if (!opts?.optimistic) return original(fn, opts);
    try {
      const value = await original(fn, opts);
      outcomes.push("committed");
      return value;
    } catch (err) {
      outcomes.push(err instanceof StaleThreadError ? "stale" : "failed");
      throw err;
    }
  }) as typeof p.transaction;
  return { outcomes, stop: () => void (p.transaction = original) };
}

describe.skipIf(process.env.TEST_RUNTIME_THREAD)("an answer whose thread another writer changed while the request was in flight", () => {
  it("is stored once, after the optimistic transaction fails (PostgreSQL), and the other write is kept", async () => {
    fake.setScript([{ delay_ms: 1500, respond: { content: "hello there" } }]);
    const watch = watchOptimistic();
    let id: string;
    try {
      const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "chat" });
      id = body.threadId;
      expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "hi" })).status).toBe(202);
      await waitFor(async () => fake.getRequests().length > 0);
      // Another process's write of the row (its version bumped, as every write of a thread row does).
      await t.app.prisma.$executeRaw`UPDATE "Thread" SET "name" = 'renamed', "version" = "version" + 1 WHERE "id" = ${id}`;
      // Watched without the app's stores until the answer is stored: a read through them would make the row known again.
      await waitFor(async () => (await t.app.prisma.message.count({ where: { threadId: id, role: "assistant" } })) > 0);
      await waitForThread(t.url, id);
    } finally {
      watch.stop();
    }
    const postgres = !!process.env.TEST_DATABASE_URL;
    expect(watch.outcomes).toEqual(postgres ? ["stale"] : ["committed"]);
    const msgs = await messagesAt(t.url, id);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ["user", "hi"],
      ["assistant", "hello there"],
    ]);
    const { body } = await api(t.url, "GET", `/api/threads/${id}`);
    expect(body.thread.status).toBe("idle");
    expect((await t.app.prisma.thread.findUniqueOrThrow({ where: { id } })).name).toBe("renamed");
  });
});
