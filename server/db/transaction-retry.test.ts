import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StaleThreadError } from "@/server/runtime/errors";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import type { Stores, TransactionOptions } from "@/server/runtime/ports";
import { createPersistence } from "./persistence";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./test-database";

/**
 * Two transactions that lock two threads in opposite orders deadlock; PostgreSQL ends one of them (40P01). Its body
 * runs again, unless the transaction is `once` (its body takes state outside it): it then fails with
 * `StaleThreadError`, nothing committed, for its caller to run again. PostgreSQL only (SQLite serialises them).
 */
describe.skipIf(testDatabaseKind() !== "postgresql")("a transaction PostgreSQL ends for a deadlock", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.cleanup());

  /** Both lock their first thread, wait for each other, then lock their second: one of them is ended. */
  async function deadlock(opts: TransactionOptions) {
    const p = createPersistence(db.prisma);
    const [a, b] = [await p.threads.create({ agentId: "a", state: initialThreadState() }), await p.threads.create({ agentId: "b", state: initialThreadState() })];
    let locked = 0;
    let bothLocked!: () => void;
    const barrier = new Promise<void>((r) => (bothLocked = r));
    const runs = { first: 0, second: 0 };
    const body = (key: "first" | "second", one: string, other: string) => async (tx: Stores) => {
      runs[key]++;
      // A read of the row in the transaction waits for its lock (a lock alone may only have been sent).
      await tx.threads.lock(one);
      await tx.threads.get(one);
      if (++locked === 2) bothLocked();
      await Promise.race([barrier, new Promise((r) => setTimeout(r, 2000))]);
      await tx.threads.lock(other);
      await tx.threads.update(one, { name: `${key} was here` });
      return key;
    };
    const results = await Promise.allSettled([p.transaction(body("first", a.id, b.id), opts), p.transaction(body("second", b.id, a.id), opts)]);
    const names = [(await p.threads.get(a.id))?.name, (await p.threads.get(b.id))?.name];
    return { results, runs, names };
  }

  it("runs the ended body again", async () => {
    const { results, runs, names } = await deadlock({});
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(runs.first + runs.second).toBe(3);
    expect(names).toEqual(["first was here", "second was here"]);
  }, 20_000);

  it("fails a `once` transaction stale instead, running its body once and committing nothing of it", async () => {
    const { results, runs, names } = await deadlock({ once: true });
    expect(runs).toEqual({ first: 1, second: 1 });
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.reason).toBeInstanceOf(StaleThreadError);
    expect((failed[0]!.reason as Error).message).toMatch(/the database ended the transaction/);
    // The other one committed; the ended one left nothing.
    expect(names.filter((n) => n !== null && n !== undefined)).toHaveLength(1);
  }, 20_000);
});
