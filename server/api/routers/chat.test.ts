import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { setParent } from "@/tests/helpers/seed-threads";
import { api, startTestApp, waitFor, waitForThread, type TestApp } from "@/tests/helpers/test-app";
import { appRouter } from "../root";
import { createCallerFactory } from "../trpc";

let fake: FakeLlm;
let t: TestApp;
const callerFor = createCallerFactory(appRouter);
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
  caller = callerFor({
    app: t.app,
    caller: { userId: null, username: null, role: "admin" as const, via: "local" as const },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

type Payload = Record<string, any>;
/** Server-side callers see tracked events as `[id, data, symbol]`. */
const unwrap = (v: unknown): Payload => (Array.isArray(v) ? (v[1] as Payload) : (v as Payload));

/** Collect a subscription's payloads until `until` holds. */
async function collect(
  iterable: AsyncIterable<unknown>,
  until: (seen: Payload[]) => boolean,
  timeoutMs = 10_000,
): Promise<Payload[]> {
  const seen: Payload[] = [];
  const it = iterable[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  try {
    while (!until(seen)) {
      const r = await Promise.race([
        it.next(),
        new Promise<never>((_, rej) =>
          setTimeout(() => rej(new Error(`timeout; saw ${seen.map((s) => s.type).join(",")}`)), deadline - Date.now()),
        ),
      ]);
      if (r.done) break;
      seen.push(unwrap(r.value));
    }
  } finally {
    void it.return?.(undefined);
  }
  return seen;
}

describe("chat router", () => {
  it("a late subscriber gets the half-streamed reply as a token.snapshot, then the rest, and the final message once", async () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
    fake.setScript([{ when: { last_role: "user" }, token_delay_ms: 40, respond: { content: words } }]);
    const created = await caller.threads.create({ agent_id: "writing_assistant" });
    await caller.threads.post({ threadId: created.id, content: "go" });
    // Wait until part of the reply has streamed, then take a snapshot and subscribe from it, like a reloaded page.
    const early = await caller.chat.snapshot({ threadId: created.id });
    const live = await collect(
      await caller.chat.events({ threadId: created.id, lastEventId: String(early.lastEventSeq) }),
      (s) => s.some((e) => e.type === "token.delta"),
    );
    expect(live.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    const snap = await caller.chat.snapshot({ threadId: created.id });
    const events = await collect(
      await caller.chat.events({ threadId: created.id, lastEventId: String(snap.lastEventSeq) }),
      (s) => s.some((e) => e.type === "message.created" && e.message.role === "assistant"),
    );
    const partial = events.find((e) => e.type === "token.snapshot");
    expect(partial, "a snapshot of the partial reply").toBeTruthy();
    expect(words.startsWith(partial!.content)).toBe(true);
    expect(partial!.content.length).toBeGreaterThan(0);
    const afterSnapshot = events
      .slice(events.indexOf(partial!) + 1)
      .filter((e) => e.type === "token.delta" && e.stepId === partial!.stepId);
    expect(partial!.content + afterSnapshot.map((e) => e.content ?? "").join("")).toBe(words);
    const finals = events.filter((e) => e.type === "message.created" && e.message.role === "assistant");
    expect(finals).toHaveLength(1);
    expect(finals[0]!.message.content).toBe(words);
    await waitForThread(t.url, created.id);
    const after = await caller.chat.snapshot({ threadId: created.id });
    expect(after.messages.map((m) => m.content)).toEqual(["go", words]);
    expect(after.thread.status).toBe("idle");
  });

  it("snapshot has tool durations, silent messages and the last stop; toolKinds knows every kind", async () => {
    fake.setScript([
      {
        when: { last_role: "user" },
        times: 1,
        respond: { tool_calls: [{ name: "word_count", arguments: { text: "a b c" } }] },
      },
      { when: { last_role: "tool" }, respond: { content: "Three words." } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", {
      agent_id: "writing_assistant",
      initial_messages: [
        { role: "user", content: "note", silent: true, metadata: { subagent_id: "x" } },
        { role: "assistant", content: "hello" },
      ],
    });
    const id = body.threadId as string;
    await caller.threads.post({ threadId: id, content: "count a b c" });
    await waitFor(async () =>
      (await caller.chat.snapshot({ threadId: id })).messages.some((m) => m.content === "Three words."),
    );
    await waitForThread(t.url, id);
    const snap = await caller.chat.snapshot({ threadId: id });
    expect(snap.messages[0]).toMatchObject({ silent: true, subagent_id: "x", seq: 1 });
    const call = snap.messages.find((m) => m.tool_calls?.length)!.tool_calls![0]!;
    expect(snap.toolRuns[call.id]).toMatchObject({ status: "success" });
    expect(typeof snap.toolRuns[call.id]!.durationMs).toBe("number");
    expect(snap.lastStop).toMatchObject({ reason: "response" });
    expect(snap.toolKinds).toMatchObject({
      word_count: "tool",
      polish_text: "subprompt",
      draft_and_review: "subagent",
    });
  });

  it("threadList: previews, nesting of children, filters that keep the ancestors, usage over the subtree", async () => {
    fake.setScript([{ respond: { content: "ok" } }]);
    const parent = (
      await api(t.url, "POST", "/api/threads", {
        agent_id: "writing_assistant",
        tags: ["nest-parent"],
        initial_messages: [{ role: "assistant", content: "parent says hi" }],
      })
    ).body.threadId;
    const child = (await api(t.url, "POST", "/api/threads", { agent_id: "draft_and_review", tags: ["nest-child"] }))
      .body.threadId;
    // Children are created by subagent spawns; set the relation directly for this listing test.
    await setParent(t, child, parent);
    await caller.threads.post({ threadId: parent, content: "and now?" });
    await waitForThread(t.url, parent);

    const all = await caller.chat.threadList({});
    const p = all.threads.find((x) => x.id === parent)!;
    expect(p.preview).toMatchObject({ role: "assistant", text: "ok" });
    expect(p.children).toBe(1);
    expect(all.threads.find((x) => x.id === child)).toMatchObject({ parent_id: parent, context: false });

    const byTag = await caller.chat.threadList({ search: "nest-child" });
    expect(byTag.threads.map((x) => [x.id, x.context])).toEqual([
      [child, false],
      [parent, true],
    ]);
    const byAgent = await caller.chat.threadList({ agentId: "draft_and_review" });
    expect(byAgent.threads.every((x) => x.agent_id === "draft_and_review" || x.context)).toBe(true);

    const usage = await caller.chat.usage({ threadId: parent });
    expect(usage.own.requests).toBe(1);
    expect(usage.subtree.threads).toBe(2);
    expect(usage.models[0]).toMatchObject({ model: "fast", requests: 1 });
    expect(usage.own.inputTokens).toBeGreaterThan(0);
    expect((await caller.chat.children({ threadId: parent })).map((c) => c.id)).toEqual([child]);
  });

  it("usage adds up the tokens, cost and requests of every thread in the subtree, per thread and per model", async () => {
    fake.setScript([{ respond: { content: "ok" } }]);
    const parent = (await api(t.url, "POST", "/api/threads", { agent_id: "writing_assistant" })).body.threadId;
    const child = (await t.app.runtime.createThread({ agentId: "writing_assistant", parentId: parent })).id;
    const grandchild = (await t.app.runtime.createThread({ agentId: "writing_assistant", parentId: child })).id;
    for (const id of [parent, child, grandchild]) {
      await caller.threads.post({ threadId: id, content: "hello" });
      await waitForThread(t.url, id);
    }
    await caller.threads.post({ threadId: child, content: "again" });
    await waitForThread(t.url, child);

    const usage = await caller.chat.usage({ threadId: parent });
    const rows = new Map(usage.threads.map((r) => [r.id, r]));
    expect([...rows.keys()].sort()).toEqual([parent, child, grandchild].sort());
    expect([rows.get(parent)!.requests, rows.get(child)!.requests, rows.get(grandchild)!.requests]).toEqual([1, 2, 1]);
    expect(usage.threads[0]!.id).toBe(parent);
    expect(usage.own.requests).toBe(1);
    expect(usage.subtree).toMatchObject({ requests: 4, threads: 3 });
    const sum = (k: "inputTokens" | "outputTokens" | "cost") => [...rows.values()].reduce((a, r) => a + r[k], 0);
    expect(usage.subtree.inputTokens).toBe(sum("inputTokens"));
    expect(usage.subtree.outputTokens).toBe(sum("outputTokens"));
    expect(usage.subtree.cost).toBeCloseTo(sum("cost"), 10);
    expect(usage.subtree.cost).toBeGreaterThan(usage.own.cost);
    expect(usage.own.cost).toBeGreaterThan(0);
    expect(usage.models.reduce((a, m) => a + m.requests, 0)).toBe(4);
    // From the middle of the tree, only its own subtree counts.
    const mid = await caller.chat.usage({ threadId: child });
    expect(mid.subtree).toMatchObject({ requests: 3, threads: 2 });
  });

  it("snapshot starts from the latest messages; older pages in before a seq, oldest first, until none is left", async () => {
    const initial = Array.from({ length: 25 }, (_, i) => ({
      role: i % 2 ? ("assistant" as const) : ("user" as const),
      content: `m${i + 1}`,
    }));
    const id = (
      await api(t.url, "POST", "/api/threads", {
        agent_id: "writing_assistant",
        initial_messages: initial.slice(0, 24),
      })
    ).body.threadId;
    const snap = await caller.chat.snapshot({ threadId: id, limit: 10 });
    expect(snap.messages.map((m) => m.content)).toEqual(initial.slice(14, 24).map((m) => m.content));
    expect(snap).toMatchObject({ hasOlder: true, total: 24 });
    const page1 = await caller.chat.older({ threadId: id, beforeSeq: snap.messages[0]!.seq, limit: 10 });
    expect(page1.messages.map((m) => m.content)).toEqual(initial.slice(4, 14).map((m) => m.content));
    expect(page1.hasOlder).toBe(true);
    const page2 = await caller.chat.older({ threadId: id, beforeSeq: page1.messages[0]!.seq, limit: 10 });
    expect(page2.messages.map((m) => m.content)).toEqual(["m1", "m2", "m3", "m4"]);
    expect(page2.hasOlder).toBe(false);
  });

  it("activity reports threads with new messages", async () => {
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "writing_assistant" })).body.threadId;
    const sub = collect(await caller.chat.activity(), (s) => s.some((e) => e.threadIds.includes(id)));
    await new Promise((r) => setTimeout(r, 50));
    await caller.threads.post({ threadId: id, content: "ping" });
    const seen = await sub;
    expect(seen.flatMap((e) => e.threadIds)).toContain(id);
    await waitForThread(t.url, id);
  });

  it("a malformed or unknown thread id is NOT_FOUND (404) for snapshot, older and usage, never a 500", async () => {
    for (const threadId of [
      "not-a-real-id",
      "%%%' OR 1=1 --",
      "x".repeat(300),
      "00000000-0000-0000-0000-000000000000",
    ]) {
      for (const call of [
        () => caller.chat.snapshot({ threadId }),
        () => caller.chat.older({ threadId, beforeSeq: 5 }),
        () => caller.chat.usage({ threadId }),
      ]) {
        const err = await call().then(
          () => null,
          (e: unknown) => e as { code?: string },
        );
        expect(err?.code, `${threadId}`).toBe("NOT_FOUND");
      }
    }
  });
});
