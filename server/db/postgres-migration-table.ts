import pg from "pg";
import type { SqliteMigrationTable } from "./sqlite-migration-table";

/**
 * Read Prisma's `_prisma_migrations` table of a PostgreSQL database with one plain query, so that an up-to-date
 * database (every start of every process) is checked without starting the WASM schema engine, which takes a second
 * or more. Null when the table does not exist yet. Connection errors are thrown: the caller reports them.
 */
export async function readPostgresMigrationTable(url: string): Promise<SqliteMigrationTable | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
    if (!exists.rows[0]?.present) return null;
    const { rows } = await client.query<{ migration_name: string; finished: boolean; rolled_back: boolean }>(
      `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
         FROM _prisma_migrations`,
    );
    const applied = new Set<string>();
    const failed: string[] = [];
    for (const r of rows) {
      if (r.rolled_back) continue;
      if (r.finished) applied.add(r.migration_name);
      else failed.push(r.migration_name);
    }
    return { applied, failed };
  } finally {
    await client.end();
  }
}
