import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import type { Stores } from "@/server/runtime/ports";
import { StateCache } from "../sqlite-direct/state-cache";
import { testPostgresAdminUrl } from "../test-postgres";
import { PgHistoryCache } from "./history";
import { withDirectPg, type PgCaches } from "./index";
import { templateDatabase } from "./test-pool";

/**
 * Autocommit reads asked for together share one connection and one round trip (read-batch.ts), on a real database:
 * each answers its own caller, in the order asked, nothing is kept for a later read, and a failing statement fails
 * alone. PostgreSQL only (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("PostgreSQL read batches", () => {
  const db = templateDatabase(adminUrl!, "pgrb", { pipeline: true } as pg.PoolConfig);
  let caches: PgCaches;
  let n = 0;
  const store = <K extends keyof Stores>(key: K) => withDirectPg(db.direct, caches, key, {} as Stores[K]);
  const thread = async () => {
    const id = `t${++n}`;
    await db.pool.query(`INSERT INTO "Thread" ("id", "agentId", "rootAgentId", "updatedAt") VALUES ($1, 'a', 'a', now())`, [id]);
    return id;
  };
  const enqueue = (threadId: string, seq: number, content: string) =>
    db.pool.query(`INSERT INTO "QueuedMessage" ("id", "threadId", "seq", "role", "content") VALUES ($1, $2, $3, 'user', $4)`, [`q${++n}`, threadId, seq, content]);

  beforeAll(async () => {
    caches = { states: new StateCache(), history: new PgHistoryCache() };
  });

  it("sends reads asked for together on one connection, each answering its caller", async () => {
    const before = { ...db.direct.reads.sent };
    const [a, b, c] = await Promise.all([
      db.direct.get<{ pid: number; x: number }>(`SELECT pg_backend_pid() AS "pid", ?::int AS "x"`, 1),
      db.direct.get<{ pid: number; x: number }>(`SELECT pg_backend_pid() AS "pid", ?::int AS "x"`, 2),
      db.direct.get<{ pid: number; x: number }>(`SELECT pg_backend_pid() AS "pid", ?::int AS "x"`, 3),
    ]);
    expect([a!.x, b!.x, c!.x]).toEqual([1, 2, 3]);
    expect(new Set([a!.pid, b!.pid, c!.pid]).size).toBe(1);
    expect(db.direct.reads.sent).toEqual({ batches: before.batches + 1, reads: before.reads + 3 });
  });

  it("reads a thread with its queue, and keeps nothing: a message queued after is in the next read", async () => {
    const id = await thread();
    await enqueue(id, 1, "first");
    const before = db.direct.reads.sent.batches;
    const [t, pending] = await Promise.all([store("threads").get(id), store("queue").pending(id)]);
    expect(db.direct.reads.sent.batches).toBe(before + 1);
    expect(t?.id).toBe(id);
    expect(pending.map((q) => q.content)).toEqual(["first"]);
    await enqueue(id, 2, "second");
    const [, again] = await Promise.all([store("threads").get(id), store("queue").pending(id)]);
    expect(again.map((q) => q.content)).toEqual(["first", "second"]);
    expect((await store("queue").pending(id)).map((q) => q.content)).toEqual(["first", "second"]);
  });

  it("runs the statements of a batch in the order asked for", async () => {
    const id = await thread();
    // A write asked for first is seen by the read asked for behind it (same connection, in order).
    const [, seen] = await Promise.all([
      db.direct.get(`INSERT INTO "QueuedMessage" ("id", "threadId", "seq", "role", "content") VALUES (?, ?, 1, 'user', 'x') RETURNING "id"`, `q${++n}`, id),
      db.direct.all(`SELECT "id" FROM "QueuedMessage" WHERE "threadId" = ?`, id),
    ]);
    expect(seen).toHaveLength(1);
  });

  it("fails a failing statement alone; the connection serves the next batch", async () => {
    const results = await Promise.allSettled([
      db.direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 1),
      db.direct.get(`SELECT 1 / ?::int AS "x"`, 0),
      db.direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 3),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(((results[0] as PromiseFulfilledResult<{ x: number }>).value).x).toBe(1);
    expect(((results[2] as PromiseFulfilledResult<{ x: number }>).value).x).toBe(3);
    const [a, b] = await Promise.all([db.direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 4), db.direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 5)]);
    expect([a!.x, b!.x]).toEqual([4, 5]);
  });
});
