import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Persistence, QueueStore, WorkStore } from "@/server/runtime/ports";
import { directSqliteOf } from "../client";
import { createPersistence } from "../persistence";
import { queueStore } from "../repositories/messages";
import { workStore } from "../repositories/work";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";

/** The queue and work items of every turn, run as direct statements: what Prisma's stores would do, checked against them. */
describe.runIf(testDatabaseKind() === "sqlite")("direct SQLite queue and work items", () => {
  let db: TestDatabase;
  let p: Persistence;
  let prismaQueue: QueueStore;
  let prismaWork: WorkStore;
  beforeAll(async () => {
    db = await createTestDatabase();
    p = createPersistence(db.prisma);
    prismaQueue = queueStore(db.prisma);
    prismaWork = workStore(db.prisma, db.prisma);
    await db.prisma.$queryRaw`SELECT 1`;
    expect(directSqliteOf(db.prisma)!.ready).toBe(true);
  });
  afterAll(() => db?.cleanup());

  const newThread = () => p.threads.create({ agentId: "a", state: initialThreadState() });

  it("enqueue with the next seq after either store's entries, as Prisma reads them back; mark one delivered", async () => {
    const t = await newThread();
    const a = await prismaQueue.enqueue(t.id, { role: "user", content: "one" });
    const b = await p.transaction((tx) =>
      tx.queue.enqueue(t.id, { role: "assistant", content: "two", attachments: [{ path: "/f" }], silent: true, metadata: { k: 1 } }),
    );
    const c = await p.queue.enqueue(t.id, { role: "user", content: "three", attachments: [] });
    expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3]);
    expect(b).toMatchObject({ role: "assistant", attachments: [{ path: "/f" }], silent: true, metadata: { k: 1 }, status: "pending" });
    expect(c.attachments).toBeNull();
    expect(await prismaQueue.pending(t.id)).toEqual([a, b, c]);
    expect(await p.queue.pending(t.id)).toEqual([a, b, c]);

    await p.queue.markDelivered(b.id, "msg-1");
    expect((await prismaQueue.pending(t.id)).map((q) => q.content)).toEqual(["one", "three"]);
    const row = await db.prisma.queuedMessage.findUniqueOrThrow({ where: { id: b.id } });
    expect(row).toMatchObject({ status: "delivered", deliveredMessageId: "msg-1" });
    expect(row.deliveredAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await expect(p.queue.markDelivered("no-such-entry", "m")).rejects.toThrow();
  });

  it("claim due items oldest first, one per thread and none of a thread already claimed; complete them; tell the next due time", async () => {
    await db.prisma.workItem.deleteMany({});
    const [t1, t2, t3] = [await newThread(), await newThread(), await newThread()];
    const ago = (ms: number) => new Date(Date.now() - ms);
    await prismaWork.enqueue({ kind: "run", threadId: t1.id, dedupeKey: `run:${t1.id}`, runAt: ago(3000) });
    const effectAt = ago(2000);
    await p.work.enqueue({ kind: "effect", threadId: t1.id, payload: { effectId: "e" }, runAt: effectAt });
    await p.work.enqueue({ kind: "run", threadId: t2.id, dedupeKey: `run:${t2.id}`, runAt: ago(1000) });
    await p.work.enqueue({ kind: "run", threadId: t2.id, dedupeKey: `run:${t2.id}` }); // deduplicated
    const later = new Date(Date.now() + 60_000);
    await p.work.enqueue({ kind: "run", threadId: t3.id, runAt: later });

    const claimed = await p.work.claim("w1", 10, 30_000);
    expect(claimed.map((c) => [c.kind, c.threadId])).toEqual([
      ["run", t1.id],
      ["run", t2.id],
    ]);
    expect(claimed[0]).toMatchObject({ payload: {}, attempts: 1 });
    const rows = await db.prisma.workItem.findMany({ where: { id: { in: claimed.map((c) => c.id) } } });
    for (const r of rows) {
      expect(r).toMatchObject({ status: "claimed", leaseOwner: "w1", dedupeKey: null, attempts: 1 });
      expect(r.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    }
    // t1's effect waits while t1's run is claimed; a new run of t2 can queue behind the running one.
    expect(await p.work.claim("w1", 10, 30_000)).toEqual([]);
    await p.work.enqueue({ kind: "run", threadId: t2.id, dedupeKey: `run:${t2.id}` });
    expect(await prismaWork.nextRunAt()).toEqual(await p.work.nextRunAt());
    expect((await p.work.nextRunAt())!.getTime()).toBe(effectAt.getTime());

    await p.work.complete(claimed[0]!.id);
    const next = await p.work.claim("w2", 1, 30_000);
    expect(next.map((c) => [c.kind, c.threadId, c.payload])).toEqual([["effect", t1.id, { effectId: "e" }]]);
    expect(await db.prisma.workItem.count({ where: { id: claimed[0]!.id } })).toBe(0);

    await p.work.complete(claimed[1]!.id);
    await p.work.complete(next[0]!.id);
    expect((await p.work.claim("w2", 5, 30_000)).map((c) => c.threadId)).toEqual([t2.id]);
    expect((await p.work.nextRunAt())!.getTime()).toBe(later.getTime());
    expect(await p.work.claim("w2", 5, 30_000)).toEqual([]);
  });

  it("claim inside a runtime transaction without opening another", async () => {
    await db.prisma.workItem.deleteMany({});
    const t = await newThread();
    await p.work.enqueue({ kind: "run", threadId: t.id });
    const claimed = await p.transaction(async (tx) => tx.work.claim("w3", 1, 1000));
    expect(claimed.map((c) => c.threadId)).toEqual([t.id]);
    expect(await prismaWork.claim("w4", 1, 1000)).toEqual([]);
  });
});
