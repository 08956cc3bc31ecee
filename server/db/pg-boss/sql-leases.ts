import type PgBoss from "pg-boss";
import type { LeaseStore } from "../repositories/leases";

/** A `timestamp(3)` column holds UTC (as Prisma writes it); PostgreSQL drops the `Z` of an ISO text cast to it. */
const at = (ms: number) => new Date(ms).toISOString();

/**
 * The leases of repositories/leases.ts as single statements on pg-boss's pool (PostgreSQL workers): every job a
 * worker runs takes its thread's lease and releases it, and through Prisma that was three statements (a conditional
 * update, an insert, a delete), each with the query builder's cost. Here taking a lease is one upsert: a new key is
 * inserted; an existing one is taken over only from its own owner or once expired (the row is locked by the upsert,
 * so two takers never both win).
 */
export function sqlLeaseStore(db: PgBoss.Db): LeaseStore {
  return {
    async acquire(key, owner, ms) {
      const now = Date.now();
      const { rows } = await db.executeSql(
        `INSERT INTO "Lease" ("key", "owner", "expiresAt", "updatedAt") VALUES ($1, $2, $3::timestamp(3), $4::timestamp(3))
         ON CONFLICT ("key") DO UPDATE SET "owner" = EXCLUDED."owner", "expiresAt" = EXCLUDED."expiresAt", "updatedAt" = EXCLUDED."updatedAt"
         WHERE "Lease"."owner" = EXCLUDED."owner" OR "Lease"."expiresAt" < EXCLUDED."updatedAt"
         RETURNING 1 AS "taken"`,
        [key, owner, at(now + ms), at(now)],
      );
      return rows.length > 0;
    },
    async extend(owner, ms, prefix = "") {
      const now = Date.now();
      const { rows } = await db.executeSql(
        `WITH "e" AS (UPDATE "Lease" SET "expiresAt" = $1::timestamp(3), "updatedAt" = $2::timestamp(3)
         WHERE "owner" = $3 AND starts_with("key", $4) RETURNING 1) SELECT count(*)::int AS "n" FROM "e"`,
        [at(now + ms), at(now), owner, prefix],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async release(key, owner) {
      await db.executeSql(`DELETE FROM "Lease" WHERE "key" = $1 AND "owner" = $2`, [key, owner]);
    },
    async holder(key) {
      const { rows } = await db.executeSql(`SELECT "owner", to_char("expiresAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt" FROM "Lease" WHERE "key" = $1`, [key]);
      const row = rows[0] as { owner: string; expiresAt: string } | undefined;
      return row ? { owner: row.owner, expiresAt: new Date(row.expiresAt) } : null;
    },
  };
}
