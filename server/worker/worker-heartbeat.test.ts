import pg from "pg";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlLeaseStore } from "@/server/db/pg-boss/sql-leases";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "@/server/db/test-postgres";
import { startWorkerHeartbeat, workerLeaseKey } from "./worker-heartbeat";

/**
 * A worker's heartbeat through the single-statement lease store (pg-boss/sql-leases.ts), as worker processes on
 * PostgreSQL run it, on a real database: each beat pushes its lease's expiry back, nobody else takes the lease while it
 * beats, and stopping releases it. PostgreSQL only (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();

describe.skipIf(!adminUrl)("worker heartbeat on PostgreSQL", () => {
  const name = uniqueDatabaseName("pghb");
  let pool: pg.Pool;
  const statements: string[] = [];
  const db: PgBoss.Db = {
    executeSql: (text, values) => {
      statements.push(text);
      return pool.query(text, values);
    },
  };
  const expiry = async (key: string) => {
    const { rows } = await pool.query(`SELECT "owner", "expiresAt" FROM "Lease" WHERE "key" = $1`, [key]);
    return rows[0] as { owner: string; expiresAt: Date } | undefined;
  };

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createDatabase(adminUrl!, name, process.env.TEST_DATABASE_TEMPLATE), max: 2 });
    if (!process.env.TEST_DATABASE_TEMPLATE) throw new Error("needs the migrated template (tests/helpers/postgres-template.ts)");
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(adminUrl!, name);
  });

  it("renews its lease with one statement a beat, keeps it from others, and releases it when stopped", async () => {
    const leases = sqlLeaseStore(db);
    const key = workerLeaseKey("w1");
    const heartbeat = await startWorkerHeartbeat(leases, "w1", { everyMs: 100 });
    const first = await expiry(key);
    expect(first?.owner).toBe("w1");
    const before = statements.length;
    await new Promise((r) => setTimeout(r, 350));
    const beats = statements.length - before;
    expect(beats).toBeGreaterThanOrEqual(2);
    expect(statements.slice(before).every((s) => s.trimStart().startsWith(`INSERT INTO "Lease"`))).toBe(true);
    expect((await expiry(key))!.expiresAt.getTime()).toBeGreaterThan(first!.expiresAt.getTime());
    expect(await leases.acquire(key, "w2", 1000)).toBe(false);
    await heartbeat.stop();
    expect(await expiry(key)).toBeUndefined();
  });
});
