import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewLlmLog, Persistence } from "@/server/runtime/ports";
import { DELTA_KEY, deltaHeader, expandRequests, jsonEqual, KEYFRAME_EVERY, RequestChains } from "./llm-log-chain";
import { createPersistence } from "./persistence";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./test-database";

const tools = [{ type: "function", function: { name: "echo", parameters: { type: "object" } } }];
const msg = (i: number) => [
  { role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "echo", arguments: `{"text":"${i}"}` } }] },
  { role: "tool", tool_call_id: `c${i}`, content: `echo: ${i}` },
];
/** The request of step `n` of a tool loop: the system prompt, the user's message, then two messages per earlier step. */
const request = (n: number, extra: Record<string, unknown> = {}) => ({
  model: "m",
  messages: [{ role: "system", content: "sys" }, { role: "user", content: "go" }, ...Array.from({ length: n - 1 }, (_, i) => msg(i + 1)).flat()],
  tools,
  stream: true,
  ...extra,
});

describe("jsonEqual", () => {
  it("compares as JSON text would: key order and undefined-valued keys do not matter, values do", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, u: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(jsonEqual({ a: null }, { a: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(jsonEqual({ 0: 1 }, [1])).toBe(false);
    expect(jsonEqual("1", 1)).toBe(false);
  });
});

describe("request chains (in memory)", () => {
  it("stores a thread's next request as the messages after the shared prefix and the fields that changed", async () => {
    const chains = new RequestChains();
    expect(chains.encode("t", request(1))).toEqual({ delta: false });
    chains.remember("t", "r1", request(1), 0);
    const e = chains.encode("t", request(3, { temperature: 0.5 }));
    expect(e.delta).toBe(true);
    if (!e.delta) return;
    expect(e.depth).toBe(1);
    expect(e.stored[DELTA_KEY]).toEqual({ base: "r1", keep: 2, same: ["model", "tools", "stream"] });
    expect(e.stored.messages).toEqual([...msg(1), ...msg(2)]);
    expect(e.stored.temperature).toBe(0.5);
    expect(e.stored).not.toHaveProperty("tools");
    const full = await expandRequests([{ id: "r2", request: e.stored }], async (ids) => (ids.includes("r1") ? [{ id: "r1", request: request(1) }] : []));
    expect(full.get("r2")).toEqual(request(3, { temperature: 0.5 }));
  });

  it("keeps only the prefix that is still equal when an earlier message changed, and starts over when none is", () => {
    const chains = new RequestChains();
    chains.remember("t", "r1", request(4), 0);
    const changed = request(5);
    (changed.messages[3] as { content: string }).content = "rewritten";
    const e = chains.encode("t", changed);
    expect(e.delta && e.stored[DELTA_KEY]).toMatchObject({ keep: 3 });
    expect(chains.encode("t", { ...request(5), messages: [{ role: "system", content: "other" }] })).toEqual({ delta: false });
    expect(chains.encode("t", { prompt: "not a chat request" })).toEqual({ delta: false });
    expect(chains.encode("other", request(5))).toEqual({ delta: false });
  });

  it(`writes a full row every ${KEYFRAME_EVERY} rows, forgets a thread on request, and keeps a bounded number of threads`, () => {
    const chains = new RequestChains();
    for (let i = 1; i <= KEYFRAME_EVERY + 1; i++) {
      const e = chains.encode("t", request(i));
      const depth = e.delta ? e.depth : 0;
      if (i === 1 || i === KEYFRAME_EVERY + 1) expect(e.delta).toBe(false);
      else expect(e.delta).toBe(true);
      chains.remember("t", `r${i}`, request(i), depth);
    }
    chains.forget("t");
    expect(chains.encode("t", request(40))).toEqual({ delta: false });
    for (let i = 0; i < 2100; i++) chains.remember(`t${i}`, "r", request(1), 0);
    expect(chains.size).toBe(2000);
    expect(chains.encode("t0", request(2))).toEqual({ delta: false });
    expect(chains.encode("t2099", request(2)).delta).toBe(true);
  });

  it("returns a delta whose base is gone as stored, header included", async () => {
    const stored = { [DELTA_KEY]: { base: "gone", keep: 1, same: [] }, messages: [] };
    const full = await expandRequests([{ id: "x", request: stored }], async () => []);
    expect(deltaHeader(full.get("x"))).toEqual({ base: "gone", keep: 1, same: [] });
  });
});

// ------------------------------------------------------------------ through the persistence, on the test database

let db: TestDatabase;
let p: Persistence;
beforeAll(async () => {
  db = await createTestDatabase();
  p = createPersistence(db.prisma);
});
afterAll(() => db?.cleanup());

const log = (threadId: string, step: number, req: unknown): NewLlmLog => ({
  threadId,
  messageId: null,
  side: "a",
  step,
  modelName: "m",
  provider: "p",
  modelId: "m1",
  attempt: 1,
  request: req,
  requestText: JSON.stringify(req),
  response: { content: `answer ${step}` },
  status: "success",
  error: null,
  inputTokens: 1,
  outputTokens: 1,
  cachedTokens: 0,
  cost: 0,
  latencyMs: 1,
  ttftMs: null,
  startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, step)),
  finishedAt: null,
});

const storedSize = async (ids: string[]) => (await p.llmLogs.storedRequests(ids)).reduce((n, r) => n + JSON.stringify(r.request).length, 0);

describe(`LLM request logs as deltas (${testDatabaseKind() === "postgresql" ? "PostgreSQL" : "SQLite"})`, () => {
  it("store each request of a thread against the previous one, and list, page and get them back in full", async () => {
    const t = await p.threads.create({ agentId: "a", state: {} as never });
    const ids: string[] = [];
    for (let i = 1; i <= 50; i++) ids.push((await p.transaction((tx) => tx.llmLogs.insert(log(t.id, i, request(i))))).id);
    const stored = await p.llmLogs.storedRequests(ids);
    const deltas = stored.filter((r) => deltaHeader(r.request));
    expect(deltas.length).toBe(50 - 2); // rows 1 and 33 are full
    const full = ids.map((_, i) => JSON.stringify(request(i + 1)).length).reduce((a, b) => a + b, 0);
    expect(await storedSize(ids)).toBeLessThan(full / 5);

    const listed = await p.llmLogs.list(t.id, { limit: 100 });
    expect(listed.map((l) => l.request)).toEqual(ids.map((_, i) => request(i + 1)));
    expect(listed[7]).toMatchObject({ step: 8, response: { content: "answer 8" } });
    // A page whose bases lie before it (and a newest-first page).
    expect((await p.llmLogs.list(t.id, { offset: 40, limit: 5 })).map((l) => l.request)).toEqual([41, 42, 43, 44, 45].map((n) => request(n)));
    expect((await p.llmLogs.list(t.id, { order: "desc", limit: 3 })).map((l) => l.step)).toEqual([50, 49, 48]);
    expect((await p.llmLogs.list(t.id, { order: "desc", limit: 1 }))[0]!.request).toEqual(request(50));
    expect((await p.llmLogs.get(ids[29]!))!.request).toEqual(request(30));
    expect(await p.llmLogs.get("missing")).toBeNull();
  });

  it("never stores a request against a row that was rolled back", async () => {
    const t = await p.threads.create({ agentId: "a", state: {} as never });
    const first = await p.transaction((tx) => tx.llmLogs.insert(log(t.id, 1, request(1))));
    await expect(
      p.transaction(async (tx) => {
        await tx.llmLogs.insert(log(t.id, 2, request(2)));
        throw new Error("the step's transaction failed");
      }),
    ).rejects.toThrow("failed");
    const third = await p.transaction((tx) => tx.llmLogs.insert(log(t.id, 3, request(3))));
    const fourth = await p.transaction((tx) => tx.llmLogs.insert(log(t.id, 4, request(4))));
    const stored = new Map((await p.llmLogs.storedRequests([first.id, third.id, fourth.id])).map((r) => [r.id, r.request]));
    expect(deltaHeader(stored.get(third.id))).toBeNull();
    expect(deltaHeader(stored.get(fourth.id))).toMatchObject({ base: third.id, keep: 6 });
    expect((await p.llmLogs.list(t.id)).map((l) => l.step)).toEqual([1, 3, 4]);
    expect((await p.llmLogs.list(t.id)).map((l) => l.request)).toEqual([request(1), request(3), request(4)]);
  });

  it("start a new chain after a restart (another persistence) and when the thread's activation ended", async () => {
    const t = await p.threads.create({ agentId: "a", state: {} as never });
    await p.transaction((tx) => tx.llmLogs.insert(log(t.id, 1, request(1))));
    const other = createPersistence(db.prisma);
    const restarted = await other.transaction((tx) => tx.llmLogs.insert(log(t.id, 2, request(2))));
    p.release?.(t.id);
    const released = await p.transaction((tx) => tx.llmLogs.insert(log(t.id, 3, request(3))));
    const after = await p.transaction((tx) => tx.llmLogs.insert(log(t.id, 4, request(4))));
    const stored = new Map((await p.llmLogs.storedRequests([restarted.id, released.id, after.id])).map((r) => [r.id, r.request]));
    expect(deltaHeader(stored.get(restarted.id))).toBeNull();
    expect(deltaHeader(stored.get(released.id))).toBeNull();
    expect(deltaHeader(stored.get(after.id))).toMatchObject({ base: released.id });
    expect((await other.llmLogs.list(t.id)).map((l) => l.request)).toEqual([1, 2, 3, 4].map((n) => request(n)));
  });
});
