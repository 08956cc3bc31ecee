import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createDatabase, dropDatabase, uniqueDatabaseName } from "../test-postgres";
import { DirectPg } from "./connection";

/**
 * For the tests of a PostgreSQL describe block: a database of their own, made from the migrated template
 * (tests/helpers/postgres-template.ts) before them and dropped after them, a pool on it (`config` added) and the
 * direct statements' runner on that pool. Set once the block's `beforeAll` has run.
 */
export function templateDatabase(adminUrl: string, label: string, config: pg.PoolConfig = {}): { pool: pg.Pool; direct: DirectPg } {
  const name = uniqueDatabaseName(label);
  const db = {} as { pool: pg.Pool; direct: DirectPg };
  beforeAll(async () => {
    db.pool = new pg.Pool({ connectionString: await createDatabase(adminUrl, name, process.env.TEST_DATABASE_TEMPLATE), max: 4, ...config });
    db.direct = new DirectPg(db.pool);
    if (!process.env.TEST_DATABASE_TEMPLATE) throw new Error("needs the migrated template (tests/helpers/postgres-template.ts)");
  });
  afterAll(async () => {
    await db.pool?.end();
    await dropDatabase(adminUrl, name);
  });
  return db;
}
