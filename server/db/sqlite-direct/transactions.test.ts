import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import { createPrismaClient, directSqliteOf } from "../client";
import { createPersistence } from "../persistence";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";

describe.runIf(testDatabaseKind() === "sqlite")("direct SQLite transactions", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.cleanup());

  const statusOf = async (id: string) => (await db.prisma.thread.findUniqueOrThrow({ where: { id } })).status;

  it("take turns with Prisma's interactive transactions on the one connection: neither sees the other's half-done work", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    expect(directSqliteOf(db.prisma)!.ready).toBe(true);
    const order: string[] = [];
    let releaseDirect!: () => void;
    const gate = new Promise<void>((r) => (releaseDirect = r));
    const direct = p.transaction(async (tx) => {
      order.push("direct:start");
      await tx.threads.update(t.id, { status: "running" });
      await gate;
      await tx.threads.update(t.id, { status: "idle", name: "direct" });
      order.push("direct:end");
    });
    await new Promise((r) => setTimeout(r, 20));
    const viaPrisma = db.prisma.$transaction(async (tx) => {
      order.push("prisma:start");
      const row = await tx.thread.findUniqueOrThrow({ where: { id: t.id } });
      await tx.thread.update({ where: { id: t.id }, data: { name: `${row.name}+prisma` } });
      order.push("prisma:end");
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(["direct:start"]); // Prisma's transaction waits for the direct one
    releaseDirect();
    await Promise.all([direct, viaPrisma]);
    expect(order).toEqual(["direct:start", "direct:end", "prisma:start", "prisma:end"]);
    expect((await p.threads.get(t.id))!.name).toBe("direct+prisma");
    expect(await statusOf(t.id)).toBe("idle");
  });

  it("roll back everything, Prisma's statements in the body included, when the body throws", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    const queued = await p.queue.enqueue(t.id, { role: "user", content: "kept" });
    await expect(
      p.transaction(async (tx) => {
        await tx.threads.update(t.id, { status: "running" });
        expect(await tx.queue.rejectPending(t.id)).toBe(1); // through Prisma, on the same connection
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await statusOf(t.id)).toBe("idle");
    expect(await p.queue.pending(t.id)).toEqual([queued]);
    expect(directSqliteOf(db.prisma)!.inTransaction).toBe(false);
  });

  it("fail at once, rolled back, when Prisma asks for its own transaction inside a direct one (rather than wait for itself)", async () => {
    const p = createPersistence(db.prisma);
    const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
    const started = Date.now();
    await expect(
      p.transaction(async (tx) => {
        await tx.threads.update(t.id, { status: "running" });
        await db.prisma.$transaction(async (inner) => inner.thread.count());
      }),
    ).rejects.toThrow(/asked for its own transaction inside a runtime transaction/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await statusOf(t.id)).toBe("idle");
    // The connection is usable afterwards, by both.
    await p.transaction(async (tx) => void (await tx.threads.update(t.id, { status: "running" })));
    expect(
      await db.prisma.$transaction(async (tx) => (await tx.thread.findUniqueOrThrow({ where: { id: t.id } })).status),
    ).toBe("running");
  });

  it("without the nesting check (production), fail after Prisma's maxWait instead, rolled back, with the connection usable", async () => {
    const prisma = createPrismaClient(db.target, { checkNestedTransactions: false });
    try {
      const p = createPersistence(prisma);
      const t = await p.threads.create({ agentId: "a", state: initialThreadState() });
      const started = Date.now();
      await expect(
        p.transaction(async (tx) => {
          await tx.threads.update(t.id, { status: "running" });
          await prisma.$transaction(async (inner) => inner.thread.count(), { maxWait: 300 });
        }),
      ).rejects.toThrow(/Unable to start a transaction in the given time/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(await statusOf(t.id)).toBe("idle");
      await p.transaction(async (tx) => void (await tx.threads.update(t.id, { status: "running" })));
      expect(await prisma.$transaction(async (tx) => (await tx.thread.findUniqueOrThrow({ where: { id: t.id } })).status)).toBe(
        "running",
      );
      expect(directSqliteOf(prisma)!.inTransaction).toBe(false);
    } finally {
      await prisma.$disconnect();
    }
  });
});
