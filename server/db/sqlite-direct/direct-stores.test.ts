import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Stores } from "@/server/runtime/ports";
import { createPrismaClient, directSqliteOf } from "../client";
import { createPersistence } from "../persistence";
import { envStore } from "../repositories/env-files";
import { eventLog, llmLogStore } from "../repositories/events";
import { messageStore, queueStore } from "../repositories/messages";
import { subagentStore } from "../repositories/subagents";
import { threadStore } from "../repositories/threads";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";
import { withDirectSqlite } from "./index";

/**
 * The direct statements must read and write exactly what Prisma's repositories do: each check writes through one
 * and reads through both.
 */
let db: TestDatabase;
let prismaSide: Pick<Stores, "threads" | "messages" | "queue" | "events" | "llmLogs" | "env" | "subagents">;
let direct: typeof prismaSide;

/** The fields of a plain user message the tests do not vary. */
const plainMessage = {
  name: null,
  toolCallId: null,
  toolStatus: null,
  reasoningContent: null,
  depth: 0,
  side: "a" as const,
  subagentId: null,
};

const newThread = (over: Record<string, unknown> = {}) =>
  prismaSide.threads.create({ agentId: "agent", tags: ["x", "y"], name: "n", state: initialThreadState(), ...over });

describe.runIf(testDatabaseKind() === "sqlite")("direct SQLite statements", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    const p = db.prisma;
    prismaSide = {
      threads: threadStore(p),
      messages: messageStore(p),
      queue: queueStore(p),
      events: eventLog(p),
      llmLogs: llmLogStore(p),
      env: envStore(p),
      subagents: subagentStore(p),
    };
    await p.$queryRaw`SELECT 1`; // Prisma opens its connection on its first query
    const sql = directSqliteOf(p)!;
    direct = Object.fromEntries(
      Object.entries(prismaSide).map(([k, base]) => [k, withDirectSqlite(sql, k as keyof Stores, base as never, false)]),
    ) as typeof prismaSide;
  });
  afterAll(() => db?.cleanup());

  it("read threads as Prisma does, and update them as Prisma does (version, activity time, JSON columns)", async () => {
    const t = await newThread();
    expect(await direct.threads.get(t.id)).toEqual(await prismaSide.threads.get(t.id));
    expect(await direct.threads.get("nope")).toBeNull();

    const state = {
      ...initialThreadState(),
      turn: { side: "b" as const, active: true, steps: 2, startSeq: 7 },
      continueRequested: true,
    };
    const updated = await direct.threads.update(t.id, {
      status: "running",
      stopReason: "error",
      state,
      tags: ["z"],
      terminatedAt: 1_790_000_000_123_456,
    });
    expect(updated).toEqual(await prismaSide.threads.get(t.id));
    expect(updated).toMatchObject({
      status: "running",
      stopReason: "error",
      tags: ["z"],
      version: t.version + 1,
      terminatedAt: 1_790_000_000_123_456,
    });
    expect(updated.state.turn).toEqual(state.turn);
    expect(updated.lastActivityAt.getTime()).toBeGreaterThanOrEqual(t.lastActivityAt.getTime());
    const row = await db.prisma.thread.findUniqueOrThrow({ where: { id: t.id } });
    expect(row.activeSide).toBe("b");

    const viaPrisma = await prismaSide.threads.update(t.id, { stopRequestedAt: null, name: null });
    expect(await direct.threads.get(t.id)).toEqual(viaPrisma);
    await expect(direct.threads.update("nope", { status: "idle" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("append messages with the next seq; list and get them as Prisma does, whatever the filter", async () => {
    const t = await newThread();
    const base = plainMessage;
    const a = await direct.messages.append(t.id, {
      ...base,
      role: "user",
      content: "hi",
      toolCalls: null,
      attachments: [{ path: "/a.txt", name: "a.txt" }],
      silent: false,
      metadata: { k: [1, 2] },
    });
    const b = await prismaSide.messages.append(t.id, {
      ...base,
      role: "assistant",
      content: null,
      toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      attachments: null,
      silent: true,
      metadata: null,
    });
    const c = await direct.messages.append(t.id, {
      ...base,
      id: "fixed-id",
      role: "tool",
      content: "r",
      toolCallId: "c1",
      toolStatus: "success",
      toolCalls: null,
      attachments: [],
      silent: false,
      metadata: null,
      createdAt: 42,
    });
    expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3]);
    expect(a).toEqual(await prismaSide.messages.get(a.id));
    expect(c).toMatchObject({ id: "fixed-id", attachments: null, createdAt: 42 });
    expect(await direct.messages.get(b.id)).toEqual(await prismaSide.messages.get(b.id));
    expect(await direct.messages.lastSeq(t.id)).toBe(3);
    for (const o of [
      {},
      { includeSilent: true },
      { includeSilent: true, order: "desc" as const, limit: 2 },
      { includeSilent: true, afterSeq: 1, beforeSeq: 3 },
      { includeSilent: true, offset: 1 },
      { limit: 1, offset: 1 },
    ]) {
      expect(await direct.messages.list(t.id, o)).toEqual(await prismaSide.messages.list(t.id, o));
    }
    // A duplicate id is the same unique violation Prisma reports (P2002: the API answers 409 with the field).
    await expect(
      direct.messages.append(t.id, {
        ...base,
        id: "fixed-id",
        role: "user",
        content: "again",
        toolCalls: null,
        attachments: null,
        silent: false,
        metadata: null,
      }),
    ).rejects.toMatchObject({
      code: "P2002",
      meta: { target: ["id"] },
    });
  });

  it("keep the whole history read cached, and still answer what Prisma reads after appends, updates, deletes and rollbacks", async () => {
    const p = createPersistence(db.prisma);
    const t = await newThread();
    const base = { ...plainMessage, toolCalls: null, attachments: null, metadata: null };
    const say = (content: string, silent = false) =>
      p.messages.append(t.id, { ...base, role: "user", content, silent });
    const same = async () => {
      const all = await p.messages.list(t.id, { includeSilent: true });
      expect(all).toEqual(await prismaSide.messages.list(t.id, { includeSilent: true }));
      return all.map((m) => m.content);
    };
    await say("one");
    await say("two", true);
    expect(await same()).toEqual(["one", "two"]);
    await say("three");
    expect(await same()).toEqual(["one", "two", "three"]);
    const [first] = await p.messages.list(t.id, { includeSilent: true });
    expect(Object.isFrozen(first)).toBe(true);
    await p.messages.update(first!.id, { content: "one, edited" });
    expect(await same()).toEqual(["one, edited", "two", "three"]);
    await p.messages.delete(first!.id);
    expect(await same()).toEqual(["two", "three"]);
    // Rows changed behind the store's back (another connection): a deleted row, a rolled-back append read meanwhile.
    await db.prisma.message.deleteMany({ where: { threadId: t.id, content: "three" } });
    expect(await same()).toEqual(["two"]);
    await expect(
      p.transaction(async (tx) => {
        await tx.messages.append(t.id, { ...base, role: "user", content: "phantom", silent: false });
        expect((await tx.messages.list(t.id, { includeSilent: true })).map((m) => m.content)).toEqual([
          "two",
          "phantom",
        ]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await say("real");
    expect(await same()).toEqual(["two", "real"]);
    // An append joins the cached history as Prisma reads it back, JSON columns included; the caller's copy is its own.
    const rich = await p.messages.append(t.id, {
      ...base,
      role: "assistant",
      content: "",
      silent: false,
      toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      attachments: [{ path: "/a", name: "a" }],
      metadata: { k: [1] },
    });
    rich.toolCalls![0]!.id = "changed";
    (rich.metadata as { k: number[] }).k.push(2);
    expect(await same()).toEqual(["two", "real", ""]);
  });

  it("append events in one batch with contiguous seqs that Prisma reads back", async () => {
    const t = await newThread();
    const custom = (event: string) => ({ type: "custom" as const, event, data: { n: event } });
    await prismaSide.events.append(t.id, custom("one"));
    const envs = await direct.events.appendMany(t.id, [custom("two"), custom("three")]);
    const single = await direct.events.append(t.id, custom("four"));
    expect([...envs, single].map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(await direct.events.lastSeq(t.id)).toBe(4);
    const read = await prismaSide.events.after(t.id, 1);
    expect(read).toEqual([...envs, single]);
    expect(await direct.events.after(t.id, 1)).toEqual(read);
    expect(await direct.events.after(t.id, 0, 2)).toEqual(await prismaSide.events.after(t.id, 0, 2));
    expect(await direct.events.after(t.id, 4)).toEqual([]);
    await expect(direct.events.append("nope", custom("x"))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("read the pending queue, the registry and the visible env as Prisma does; log an LLM request Prisma reads", async () => {
    const parent = await newThread();
    const child = await newThread({ parentId: parent.id });
    await prismaSide.queue.enqueue(parent.id, {
      role: "user",
      content: "q1",
      attachments: [{ path: "/x" }],
      silent: true,
      metadata: { m: 1 },
    });
    const q2 = await prismaSide.queue.enqueue(parent.id, { role: "assistant", content: "q2" });
    await prismaSide.queue.markDelivered(q2.id, "m1");
    expect(await direct.queue.pending(parent.id)).toEqual(await prismaSide.queue.pending(parent.id));
    expect((await direct.queue.pending(parent.id)).map((q) => q.content)).toEqual(["q1"]);

    const entry = {
      parentId: parent.id,
      childId: child.id,
      name: "kid",
      title: null,
      description: "d",
      resumable: true,
      blocking: false,
      threadName: null,
      spawnGroupId: "g",
      status: "running",
      parentCommunication: "implicit" as const,
      toolName: "t",
      toolCallId: null,
      createdAt: 1_790_000_000_000_001,
    };
    await prismaSide.subagents.create(entry);
    await prismaSide.subagents.update(child.id, { reportedAt: new Date(), status: "idle" });
    expect(await direct.subagents.get(child.id)).toEqual(await prismaSide.subagents.get(child.id));
    expect(await direct.subagents.listByParent(parent.id)).toEqual(await prismaSide.subagents.listByParent(parent.id));
    expect(await direct.subagents.get("nope")).toBeNull();

    await prismaSide.env.set("thread", parent.id, "B", "text", "1");
    await prismaSide.env.set("thread", parent.id, "A", "secret", "enc");
    await prismaSide.env.set("instance", "instance", "I", "text", "2");
    await prismaSide.env.set("thread", child.id, "OTHER", "text", "3");
    for (const userId of [null, "u1"])
      expect(await direct.env.visible(parent.id, userId)).toEqual(await prismaSide.env.visible(parent.id, userId));

    const startedAt = new Date(Date.now() - 5);
    const log = await direct.llmLogs.insert({
      threadId: parent.id,
      messageId: null,
      side: "a",
      step: 3,
      modelName: "m",
      provider: "p",
      modelId: "mid",
      attempt: 1,
      request: { messages: [{ role: "user", content: "hi" }] },
      response: null,
      status: "success",
      error: null,
      inputTokens: 5,
      outputTokens: 7,
      cachedTokens: 1,
      cost: 0.25,
      latencyMs: 12,
      ttftMs: null,
      startedAt,
      finishedAt: new Date(),
    });
    const [stored] = await prismaSide.llmLogs.list(parent.id);
    expect(stored).toEqual({ ...log, response: null });
  });

  it("insert work items and folders only when absent, in one statement each, also inside a transaction", async () => {
    const p = createPersistence(db.prisma);
    const t = await newThread();
    await p.transaction(async (tx) => {
      await tx.work.enqueue({
        kind: "effect",
        threadId: t.id,
        payload: { effectId: "e1" },
        runAt: new Date(Date.now() + 60_000),
        dedupeKey: "effect:e1",
      });
      await tx.work.enqueue({ kind: "effect", threadId: t.id, payload: { effectId: "other" }, dedupeKey: "effect:e1" });
      await tx.work.enqueue({ kind: "run", threadId: t.id });
      await tx.work.enqueue({ kind: "run", threadId: t.id });
    });
    const items = await db.prisma.workItem.findMany({ where: { threadId: t.id }, orderBy: { kind: "asc" } });
    expect(items.map((i) => [i.kind, i.dedupeKey, i.status, i.payload])).toEqual([
      ["effect", "effect:e1", "pending", { effectId: "e1" }],
      ["run", null, "pending", {}],
      ["run", null, "pending", {}],
    ]);
    expect(items[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 50_000);

    const files = p.files;
    await files.write(t.id, "/f.txt", new Uint8Array([1, 2]), { mimeType: "text/plain" });
    const before = await files.stat(t.id, "/f.txt");
    const [dir, again, onFile] = await p.transaction(async (tx) => [
      await tx.files.mkdir(t.id, "/d"),
      await tx.files.mkdir(t.id, "/d"),
      await tx.files.mkdir(t.id, "/f.txt"),
    ]);
    expect(dir).toEqual(again);
    expect(dir).toMatchObject({ threadId: t.id, path: "/d", isDirectory: true, size: 0, metadata: null });
    expect(dir).toEqual(await files.stat(t.id, "/d"));
    expect(onFile).toEqual(before);
  });

  it("inside a transaction, writes commit or roll back with the transaction's other statements", async () => {
    const p = createPersistence(db.prisma);
    const t = await newThread();
    await expect(
      p.transaction(async (tx) => {
        await tx.threads.update(t.id, { status: "running" });
        await tx.events.append(t.id, { type: "custom", event: "lost", data: null });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await prismaSide.threads.get(t.id))!.status).toBe("idle");
    expect(await prismaSide.events.lastSeq(t.id)).toBe(0);
    await p.transaction(async (tx) => {
      await tx.threads.update(t.id, { status: "running" });
      await tx.events.append(t.id, { type: "custom", event: "kept", data: null });
    });
    expect((await prismaSide.threads.get(t.id))!.status).toBe("running");
    expect(await prismaSide.events.lastSeq(t.id)).toBe(1);
  });

  it("use Prisma until the client has opened its connection", async () => {
    const fresh = createPrismaClient(db.target);
    try {
      const p = createPersistence(fresh);
      expect(directSqliteOf(fresh)!.ready).toBe(false);
      const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
      expect((await p.threads.get(t.id))!.agentId).toBe("a");
      expect(directSqliteOf(fresh)!.ready).toBe(true);
    } finally {
      await fresh.$disconnect();
    }
    expect(directSqliteOf(fresh)!.ready).toBe(false);
  });
});
