import { describe, expect, it } from "vitest";
import type { Db } from "./client";
import { threadLock } from "./row-lock";

describe("threadLock", () => {
  it("locks each thread once per transaction on PostgreSQL, however often it is asked, and waits for that lock", async () => {
    const sent: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const db = {
      $queryRaw: (parts: TemplateStringsArray, id: string) => {
        sent.push(`${parts.join("?")} ${id}`);
        return held.then(() => []);
      },
    } as unknown as Db;
    const lock = threadLock(db, "postgresql");
    let waited = 0;
    const a = lock("t1").then(() => waited++);
    const b = lock("t1").then(() => waited++);
    await Promise.resolve();
    expect(waited).toBe(0);
    release();
    await Promise.all([a, b, lock("t2"), lock("t1")]);
    expect(waited).toBe(2);
    expect(sent).toEqual(['SELECT * FROM "Thread" WHERE "id" = ? FOR UPDATE t1', 'SELECT * FROM "Thread" WHERE "id" = ? FOR UPDATE t2']);
    // The row the lock read (none here), then the store's own write; a thread not locked here has none.
    expect(await lock.row("t1")).toBeNull();
    lock.wrote("t1", { id: "t1" } as never);
    expect(await lock.row("t1")).toEqual({ id: "t1" });
    lock.wrote("t3", { id: "t3" } as never);
    expect(await lock.row("t3")).toBeUndefined();
    // Another transaction's stores get their own lock.
    await threadLock(db, "postgresql")("t1");
    expect(sent).toHaveLength(3);
  });

  it("is a no-op on SQLite (one writing transaction at a time)", async () => {
    const db = { $queryRaw: () => Promise.reject(new Error("not called")) } as unknown as Db;
    const lock = threadLock(db, "sqlite");
    await expect(lock("t1")).resolves.toBeUndefined();
    expect(await lock.row("t1")).toBeUndefined();
  });
});
