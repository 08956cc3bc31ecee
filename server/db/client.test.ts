import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, databaseKindOf } from "./client";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

const onPostgres = testDatabaseKind() === "postgresql";

// SQLite-only: pragmas of a SQLite file (the PostgreSQL pass checks its client below).
describe.skipIf(onPostgres)("createPrismaClient on SQLite", () => {
  it("opens connections in WAL mode with foreign keys on and the busy timeout set", async () => {
    const prisma = createPrismaClient(db.target, { busyTimeoutMs: 1234 });
    try {
      const [journal] = await prisma.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      const [fk] = await prisma.$queryRawUnsafe<{ foreign_keys: bigint }[]>("PRAGMA foreign_keys");
      const [busy] = await prisma.$queryRawUnsafe<{ timeout: bigint }[]>("PRAGMA busy_timeout");
      expect(journal?.journal_mode).toBe("wal");
      expect(Number(fk?.foreign_keys)).toBe(1);
      expect(Number(busy?.timeout)).toBe(1234);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("lets two clients on the same file interleave writes and read each other's rows", async () => {
    const a = createPrismaClient(db.target);
    const b = createPrismaClient(db.target);
    try {
      const writes = Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).thread.create({ data: { agentId: `agent-${i}`, rootAgentId: "root" } }),
      );
      await Promise.all(writes);
      expect(await a.thread.count({ where: { rootAgentId: "root" } })).toBe(20);
      expect(await b.thread.count({ where: { rootAgentId: "root" } })).toBe(20);
    } finally {
      await a.$disconnect();
      await b.$disconnect();
    }
  });
});

describe.skipIf(!onPostgres)("createPrismaClient on PostgreSQL", () => {
  it("gives a client of the PostgreSQL provider, and two clients interleave writes and read each other's rows", async () => {
    const a = createPrismaClient(db.target);
    const b = createPrismaClient(db.target);
    try {
      expect(databaseKindOf(a)).toBe("postgresql");
      const [row] = await a.$queryRawUnsafe<{ v: string }[]>("SELECT version() AS v");
      expect(row?.v).toMatch(/^PostgreSQL/);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).thread.create({ data: { agentId: `agent-${i}`, rootAgentId: "pg-root" } })),
      );
      expect(await b.thread.count({ where: { rootAgentId: "pg-root" } })).toBe(20);
    } finally {
      await a.$disconnect();
      await b.$disconnect();
    }
  });
});
