import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Stores } from "@/server/runtime/ports";
import { createPrismaClient, directSqliteOf, transactionClientOf } from "../client";
import type { PrismaClient } from "../generated/prisma/client";
import { threadStore } from "../repositories/threads";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";
import type { DirectSqlite } from "./connection";
import { withDirectSqlite } from "./index";

/**
 * Two apps in one process on one SQLite file (an API-only app and a worker app, as in the integration tests): each has
 * its own connection, its own direct stores and caches. `PRAGMA data_version` is checked once per event-loop turn;
 * a commit by the other connection of the process made later in that same turn happened before the next read began,
 * and that read must see it (no `setImmediate` between them here).
 */
let db: TestDatabase;
let otherPrisma: PrismaClient;
let a: { sql: DirectSqlite; threads: Stores["threads"] };
let b: { sql: DirectSqlite; threads: Stores["threads"] };

async function side(prisma: PrismaClient) {
  await prisma.$queryRaw`SELECT 1`;
  const sql = directSqliteOf(prisma)!;
  return { sql, threads: withDirectSqlite(sql, "threads", threadStore(prisma), false) };
}

describe.runIf(testDatabaseKind() === "sqlite")("a commit by another connection in the same event-loop turn", () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    otherPrisma = createPrismaClient(db.target);
    a = await side(db.prisma);
    b = await side(otherPrisma);
  });
  afterAll(async () => {
    await otherPrisma?.$disconnect();
    await db?.cleanup();
  });

  /** A thread that A has read twice in this turn (its row held at A's current stamp). */
  async function heldByA(): Promise<string> {
    const t = await a.threads.create({ agentId: "agent", tags: [], name: "n", state: initialThreadState() });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect((await a.threads.get(t.id))?.stopRequestedAt).toBeNull();
    expect(a.sql.rows.get(t.id, a.sql.stamp())).toBeDefined();
    return t.id;
  }

  it("is seen by the next read: a direct write outside a transaction (autocommit)", async () => {
    const id = await heldByA();
    await b.threads.update(id, { stopRequestedAt: 123 });
    expect((await a.threads.get(id))?.stopRequestedAt).toBe(123);
  });

  it("is seen by the next read: a runtime transaction's COMMIT", async () => {
    const id = await heldByA();
    const bInTx = withDirectSqlite(b.sql, "threads", threadStore(transactionClientOf(otherPrisma)!), true);
    await b.sql.transaction(async () => {
      await bInTx.update(id, { stopRequestedAt: 456 });
    });
    expect((await a.threads.get(id))?.stopRequestedAt).toBe(456);
  });

  it("is seen by the next read: a Prisma write and a Prisma transaction", async () => {
    const id = await heldByA();
    await otherPrisma.thread.update({ where: { id }, data: { name: "via prisma" } });
    expect((await a.threads.get(id))?.name).toBe("via prisma");
    await otherPrisma.$transaction(async (tx) => {
      await tx.thread.update({ where: { id }, data: { name: "in a transaction" } });
    });
    expect((await a.threads.get(id))?.name).toBe("in a transaction");
  });

  it("the thread row is checked on each read: a commit by a connection outside the process is seen as well", async () => {
    const id = await heldByA();
    if (db.target.kind !== "sqlite") throw new Error("a SQLite test database was expected");
    const elsewhere = new Database(db.target.file);
    try {
      elsewhere.prepare(`UPDATE "Thread" SET "stopRequestedAt" = 789 WHERE "id" = ?`).run(id);
    } finally {
      elsewhere.close();
    }
    expect((await a.threads.get(id))?.stopRequestedAt).toBe(789);
  });

  it("the connection's own writes keep its check for the turn (no extra version check)", async () => {
    const id = await heldByA();
    const stamp = a.sql.stamp();
    await a.threads.update(id, { name: "own" });
    expect(a.sql.stamp()).toBe(stamp);
    expect(a.sql.rows.get(id, stamp)).toMatchObject({ name: "own" });
  });
});
