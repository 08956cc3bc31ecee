import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlLeaseStore } from "../pg-boss/sql-leases";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../test-database";
import { leaseStore, type LeaseStore } from "./leases";

/** The Prisma store everywhere; on PostgreSQL also the workers' single-statement one (pg-boss/sql-leases.ts). */
type Open = (db: TestDatabase) => { leases: LeaseStore; close(): Promise<void> };
const sqlStore: Open = (db) => {
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  return { leases: sqlLeaseStore({ executeSql: (text, values) => pool.query(text, values) }), close: () => pool.end() };
};
const stores: [string, Open][] = [
  ["through Prisma", (db) => ({ leases: leaseStore(db.prisma), close: async () => {} })],
  ...(testDatabaseKind() === "postgresql" ? [["as single statements (PostgreSQL workers)", sqlStore] as [string, Open]] : []),
];

describe.each(stores)("leases %s", (_name, open) => {
  let db: TestDatabase;
  let store: ReturnType<typeof open>;
  beforeEach(async () => {
    db = await createTestDatabase();
    store = open(db);
  });
  afterEach(async () => {
    await store.close();
    await db.cleanup();
  });

  it("has one owner until it is released or expires, and its owner renews it", async () => {
    const { leases } = store;
    expect(await leases.acquire("thread:a", "w1", 60_000)).toBe(true);
    expect(await leases.acquire("thread:a", "w2", 60_000)).toBe(false);
    expect(await leases.acquire("thread:a", "w1", 60_000)).toBe(true);
    await leases.release("thread:a", "w2");
    expect((await leases.holder("thread:a"))?.owner).toBe("w1");
    await leases.release("thread:a", "w1");
    expect(await leases.acquire("thread:a", "w2", 50)).toBe(true);

    await new Promise((r) => setTimeout(r, 80));
    expect(await leases.acquire("thread:a", "w3", 60_000)).toBe(true);
    expect(await leases.acquire("thread:b", "w3", 50)).toBe(true);
    expect(await leases.acquire("worker:w3", "w3", 50)).toBe(true);
    expect(await leases.extend("w3", 60_000, "thread:")).toBe(2);
    await new Promise((r) => setTimeout(r, 80));
    expect(await leases.acquire("thread:b", "w1", 60_000)).toBe(false);
    expect(await leases.acquire("worker:w3", "w1", 60_000)).toBe(true);
    const held = await leases.holder("worker:w3");
    expect(held?.owner).toBe("w1");
    expect(Math.abs(held!.expiresAt.getTime() - (Date.now() + 60_000))).toBeLessThan(5_000);
    expect(await leases.holder("thread:none")).toBeNull();
  });

  it("two takers of a free lease at once: exactly one wins", async () => {
    const { leases } = store;
    for (let i = 0; i < 5; i++) {
      const won = await Promise.all(["w1", "w2", "w3"].map((w) => leases.acquire(`thread:race${i}`, w, 60_000)));
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });
});
