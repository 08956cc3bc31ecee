import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stores } from "@/server/runtime/ports";
import { StateCache } from "../sqlite-direct/state-cache";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "../test-postgres";
import { DirectPg } from "./connection";
import { PgHistoryCache } from "./history";
import { withDirectPg, type PgCaches } from "./index";

/**
 * Autocommit reads asked for together share one connection and one round trip (read-batch.ts), on a real database:
 * each answers its own caller, in the order asked, nothing is kept for a later read, and a failing statement fails
 * alone. PostgreSQL only (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("PostgreSQL read batches", () => {
  const name = uniqueDatabaseName("pgrb");
  let pool: pg.Pool;
  let direct: DirectPg;
  let caches: PgCaches;
  let n = 0;
  const store = <K extends keyof Stores>(key: K) => withDirectPg(direct, caches, key, {} as Stores[K]);
  const thread = async () => {
    const id = `t${++n}`;
    await pool.query(`INSERT INTO "Thread" ("id", "agentId", "rootAgentId", "updatedAt") VALUES ($1, 'a', 'a', now())`, [id]);
    return id;
  };
  const enqueue = (threadId: string, seq: number, content: string) =>
    pool.query(`INSERT INTO "QueuedMessage" ("id", "threadId", "seq", "role", "content") VALUES ($1, $2, $3, 'user', $4)`, [`q${++n}`, threadId, seq, content]);

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createDatabase(adminUrl!, name, process.env.TEST_DATABASE_TEMPLATE), max: 4, pipeline: true } as pg.PoolConfig);
    direct = new DirectPg(pool);
    caches = { states: new StateCache(), history: new PgHistoryCache() };
    if (!process.env.TEST_DATABASE_TEMPLATE) throw new Error("needs the migrated template (tests/helpers/postgres-template.ts)");
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(adminUrl!, name);
  });

  it("sends reads asked for together on one connection, each answering its caller", async () => {
    const before = { ...direct.reads.sent };
    const [a, b, c] = await Promise.all([
      direct.get<{ pid: number; x: number }>(`SELECT pg_backend_pid() AS "pid", ?::int AS "x"`, 1),
      direct.get<{ pid: number; x: number }>(`SELECT pg_backend_pid() AS "pid", ?::int AS "x"`, 2),
      direct.get<{ pid: number; x: number }>(`SELECT pg_backend_pid() AS "pid", ?::int AS "x"`, 3),
    ]);
    expect([a!.x, b!.x, c!.x]).toEqual([1, 2, 3]);
    expect(new Set([a!.pid, b!.pid, c!.pid]).size).toBe(1);
    expect(direct.reads.sent).toEqual({ batches: before.batches + 1, reads: before.reads + 3 });
  });

  it("reads a thread with its queue, and keeps nothing: a message queued after is in the next read", async () => {
    const id = await thread();
    await enqueue(id, 1, "first");
    const before = direct.reads.sent.batches;
    const [t, pending] = await Promise.all([store("threads").get(id), store("queue").pending(id)]);
    expect(direct.reads.sent.batches).toBe(before + 1);
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
      direct.get(`INSERT INTO "QueuedMessage" ("id", "threadId", "seq", "role", "content") VALUES (?, ?, 1, 'user', 'x') RETURNING "id"`, `q${++n}`, id),
      direct.all(`SELECT "id" FROM "QueuedMessage" WHERE "threadId" = ?`, id),
    ]);
    expect(seen).toHaveLength(1);
  });

  it("fails a failing statement alone; the connection serves the next batch", async () => {
    const results = await Promise.allSettled([
      direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 1),
      direct.get(`SELECT 1 / ?::int AS "x"`, 0),
      direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 3),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(((results[0] as PromiseFulfilledResult<{ x: number }>).value).x).toBe(1);
    expect(((results[2] as PromiseFulfilledResult<{ x: number }>).value).x).toBe(3);
    const [a, b] = await Promise.all([direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 4), direct.get<{ x: number }>(`SELECT ?::int AS "x"`, 5)]);
    expect([a!.x, b!.x]).toEqual([4, 5]);
  });
});
