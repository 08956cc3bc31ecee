import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Stores } from "@/server/runtime/ports";
import { directSqliteOf, transactionClientOf } from "../client";
import { messageStore, queueStore } from "../repositories/messages";
import { subagentStore } from "../repositories/subagents";
import { threadStore } from "../repositories/threads";
import { eventLog } from "../repositories/events";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";
import type { DirectSqlite } from "./connection";
import { withDirectSqlite } from "./index";
import { StampedCache } from "./stamped-cache";

/**
 * The direct stores hold thread rows, histories, pending queues and subagent lists between reads while the
 * connection's stamp stays. Each check fills the caches, changes the database another way (another connection, a
 * Prisma write, a rolled-back transaction) and reads again: the reads must see the change.
 */
let db: TestDatabase;
let sql: DirectSqlite;
let other: Database.Database;
let direct: Pick<Stores, "threads" | "messages" | "queue" | "subagents" | "events">;
let prismaSide: typeof direct;
/** The same stores bound to a transaction on the connection (their Prisma side on the transaction client). */
let inTx: typeof direct;

const message = (content: string) => ({
  role: "user" as const,
  content,
  name: null,
  toolCalls: null,
  toolCallId: null,
  toolStatus: null,
  reasoningContent: null,
  attachments: null,
  silent: false,
  depth: 0,
  side: "a" as const,
  metadata: null,
  subagentId: null,
});

const newThread = () => prismaSide.threads.create({ agentId: "agent", tags: [], name: "n", state: initialThreadState() });

/** Another connection's commit is seen from the event loop's next turn on (see `DirectSqlite.stamp`). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Fill every cache for the thread (two reads each: the second comes from the cache). */
async function readAll(id: string) {
  for (let i = 0; i < 2; i++) {
    await direct.threads.get(id);
    await direct.messages.list(id, { includeSilent: true });
    await direct.queue.pending(id);
    await direct.subagents.listByParent(id);
  }
}

describe("StampedCache", () => {
  it("serves an entry only at the stamp it was taken at, and keeps a patch only on a current entry", () => {
    const c = new StampedCache<number[]>(2);
    c.set("a", [1], 1);
    expect(c.get("a", 1)).toEqual([1]);
    expect(c.get("a", 2)).toBeUndefined();
    expect(c.size).toBe(0); // a stale entry is dropped when found
    c.set("a", [1], 2);
    c.patch("a", 2, (v) => [...v, 2]);
    expect(c.get("a", 2)).toEqual([1, 2]);
    c.patch("a", 3, (v) => [...v, 3]);
    expect(c.get("a", 3)).toBeUndefined();
    c.set("x", [], 3);
    c.set("y", [], 3);
    c.set("z", [9], 3);
    expect(c.size).toBe(2); // bounded: the least recently used went
    expect(c.keysWhere((v) => v.includes(9))).toEqual(["z"]);
  });
});

describe.runIf(testDatabaseKind() === "sqlite")("stamped reads of the direct SQLite stores", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    const p = db.prisma;
    prismaSide = { threads: threadStore(p), messages: messageStore(p), queue: queueStore(p), subagents: subagentStore(p), events: eventLog(p) };
    await p.$queryRaw`SELECT 1`;
    sql = directSqliteOf(p)!;
    direct = Object.fromEntries(
      Object.entries(prismaSide).map(([k, base]) => [k, withDirectSqlite(sql, k as keyof Stores, base as never, false)]),
    ) as typeof direct;
    const t = transactionClientOf(p)!;
    const txSide = { threads: threadStore(t), messages: messageStore(t), queue: queueStore(t), subagents: subagentStore(t), events: eventLog(t) };
    inTx = Object.fromEntries(
      Object.entries(txSide).map(([k, base]) => [k, withDirectSqlite(sql, k as keyof Stores, base as never, true)]),
    ) as typeof direct;
    if (db.target.kind !== "sqlite") throw new Error("a SQLite test database was expected");
    other = new Database(db.target.file);
  });
  afterAll(async () => {
    other?.close();
    await db?.cleanup();
  });

  it("serve repeated reads from memory while nothing else writes", async () => {
    const t = await newThread();
    await direct.messages.append(t.id, message("one"));
    await readAll(t.id);
    const stamp = sql.stamp();
    expect(sql.rows.get(t.id, stamp)).toBeDefined();
    expect(sql.queues.get(t.id, stamp)).toEqual([]);
    expect(sql.children.get(t.id, stamp)).toEqual([]);
    expect(sql.history.get(t.id)?.stamp).toBe(stamp);
    // The store's own writes keep the entries current.
    await direct.messages.append(t.id, message("two"));
    await direct.events.append(t.id, { type: "thread.status", status: "running", stopReason: null });
    await direct.queue.enqueue(t.id, { role: "user", content: "q" });
    expect(sql.stamp()).toBe(stamp);
    expect((await direct.messages.list(t.id, { includeSilent: true })).map((m) => m.content)).toEqual(["one", "two"]);
    expect(await direct.messages.lastSeq(t.id)).toBe(2);
    const row = await db.prisma.thread.findUniqueOrThrow({ where: { id: t.id } });
    expect(sql.rows.get(t.id, stamp)).toMatchObject({ eventSeq: row.eventSeq, version: row.version });
    expect((await direct.queue.pending(t.id)).map((q) => q.content)).toEqual(["q"]);
  });

  it("see what another connection commits", async () => {
    const t = await newThread();
    await direct.messages.append(t.id, message("one"));
    await readAll(t.id);
    other.prepare(`UPDATE "Thread" SET "name" = 'renamed' WHERE "id" = ?`).run(t.id);
    await nextTurn();
    expect((await direct.threads.get(t.id))?.name).toBe("renamed");

    await readAll(t.id);
    other.prepare(`UPDATE "Message" SET "content" = 'edited' WHERE "threadId" = ?`).run(t.id);
    await nextTurn();
    expect((await direct.messages.list(t.id, { includeSilent: true }))[0]?.content).toBe("edited");

    await readAll(t.id);
    other.prepare(`DELETE FROM "Message" WHERE "threadId" = ?`).run(t.id);
    await nextTurn();
    expect(await direct.messages.list(t.id, { includeSilent: true })).toEqual([]);
    expect(await direct.messages.lastSeq(t.id)).toBe(0);
    expect((await direct.messages.append(t.id, message("again"))).seq).toBe(1);

    await readAll(t.id);
    const q = await prismaSide.queue.enqueue(t.id, { role: "user", content: "from elsewhere" });
    await readAll(t.id);
    other.prepare(`UPDATE "QueuedMessage" SET "status" = 'rejected' WHERE "id" = ?`).run(q.id);
    await nextTurn();
    expect(await direct.queue.pending(t.id)).toEqual([]);
  });

  it("see what Prisma writes on the same connection", async () => {
    const t = await newThread();
    const child = await newThread();
    await direct.messages.append(t.id, message("one"));
    await readAll(t.id);
    await db.prisma.thread.update({ where: { id: t.id }, data: { name: "via prisma" } });
    expect((await direct.threads.get(t.id))?.name).toBe("via prisma");

    await readAll(t.id);
    await prismaSide.subagents.create({
      parentId: t.id,
      childId: child.id,
      name: "agent",
      title: null,
      description: "",
      resumable: true,
      blocking: false,
      threadName: null,
      spawnGroupId: null,
      status: "running",
      parentCommunication: "implicit",
      toolName: "agent",
      toolCallId: null,
      createdAt: Date.now() * 1000,
    });
    expect((await direct.subagents.listByParent(t.id)).map((e) => e.childId)).toEqual([child.id]);

    // This process edits messages through the store, which drops the thread's history.
    await readAll(t.id);
    const [first] = await direct.messages.list(t.id, { includeSilent: true });
    await direct.messages.update(first!.id, { content: "edited" });
    expect((await direct.messages.list(t.id, { includeSilent: true }))[0]?.content).toBe("edited");
    await direct.messages.append(t.id, message("two"));

    await readAll(t.id);
    await db.prisma.message.delete({ where: { id: first!.id } });
    expect((await direct.messages.list(t.id, { includeSilent: true })).map((m) => m.content)).toEqual(["two"]);

    await readAll(t.id);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "Message" WHERE "threadId" = '${t.id}'`);
    expect(await direct.messages.lastSeq(t.id)).toBe(0);
  });

  it("drop what a rolled-back transaction wrote", async () => {
    const t = await newThread();
    await readAll(t.id);
    await expect(
      sql.transaction(async () => {
        await inTx.threads.update(t.id, { name: "uncommitted" });
        await inTx.messages.append(t.id, message("uncommitted"));
        await inTx.queue.enqueue(t.id, { role: "user", content: "uncommitted" });
        expect((await inTx.threads.get(t.id))?.name).toBe("uncommitted");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await direct.threads.get(t.id))?.name).toBe("n");
    expect(await direct.messages.list(t.id, { includeSilent: true })).toEqual([]);
    expect(await direct.queue.pending(t.id)).toEqual([]);
  });
});
