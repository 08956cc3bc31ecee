import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cacheStatements } from "./sqlite-statement-cache";
import { createTestDatabase } from "./test-database";

describe("cacheStatements", () => {
  it("reuses one prepared statement per SQL text, binding each call's own parameters", () => {
    const db = new Database(":memory:");
    cacheStatements(db, 2);
    db.prepare("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)").bind([]).run();
    const insert = "INSERT INTO t (id, name) VALUES (?, ?)";
    const a = db.prepare(insert);
    a.bind([1, "one"]).run();
    expect(db.prepare(insert)).toBe(a);
    db.prepare(insert).bind([2, "two"]).run();
    const select = db.prepare("SELECT id, name FROM t WHERE id >= ? ORDER BY id");
    const bound = select.bind([1]);
    expect(bound.reader).toBe(true);
    expect(bound.columns().map((c) => c.name)).toEqual(["id", "name"]);
    expect(bound.raw().all()).toEqual([[1, "one"], [2, "two"]]);
    expect(db.prepare("SELECT id, name FROM t WHERE id >= ? ORDER BY id").bind([2]).raw().all()).toEqual([[2, "two"]]);
    // A third SQL text evicts the least recently used one (the cache holds 2 here).
    db.prepare("SELECT count(*) AS n FROM t").bind([]).raw().all();
    expect(db.prepare(insert)).not.toBe(a);
    db.close();
  });

  it("serves Prisma through the SQLite adapter: writes, reads and a rolled-back transaction", async () => {
    const t = await createTestDatabase();
    try {
      const thread = await t.prisma.thread.create({ data: { agentId: "a", rootAgentId: "a" } });
      for (let i = 1; i <= 3; i++) await t.prisma.thread.update({ where: { id: thread.id }, data: { eventSeq: { increment: 1 } } });
      await expect(
        t.prisma.$transaction(async (tx) => {
          await tx.thread.update({ where: { id: thread.id }, data: { eventSeq: { increment: 10 } } });
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect((await t.prisma.thread.findUnique({ where: { id: thread.id } }))?.eventSeq).toBe(3);
    } finally {
      await t.cleanup();
    }
  });
});
