import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "./client";
import { createTestDatabase, type TestDatabase } from "./test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

describe("createPrismaClient on SQLite", () => {
  it("opens connections in WAL mode with foreign keys on and the busy timeout set", async () => {
    const prisma = createPrismaClient(db.url, { busyTimeoutMs: 1234 });
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
    const a = createPrismaClient(db.url);
    const b = createPrismaClient(db.url);
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

  it("rejects an unsupported URL before connecting", () => {
    expect(() => createPrismaClient("mysql://h/db")).toThrow(/unsupported URL/);
  });
});
