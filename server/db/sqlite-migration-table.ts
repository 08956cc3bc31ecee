import fs from "node:fs";
import Database from "better-sqlite3";

/**
 * Read Prisma's `_prisma_migrations` table of a SQLite file directly, without the schema engine. The engine puts
 * its connection in EXCLUSIVE locking mode, which cannot be had while another process (a running app) has the file
 * open in WAL mode; reading the table first lets an up-to-date database be checked without any lock, and faster.
 */

export interface SqliteMigrationTable {
  /** Finished and not rolled back. */
  applied: Set<string>;
  /** Started, never finished, not rolled back: deploy refuses to continue until they are resolved. */
  failed: string[];
}

interface Row {
  migration_name: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** The table's state, or null when the file or the table does not exist yet. */
export function readSqliteMigrationTable(file: string, busyTimeoutMs = 5_000): SqliteMigrationTable | null {
  if (!fs.existsSync(file)) return null;
  const db = new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return null;
    const rows = db
      .prepare("SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations")
      .all() as Row[];
    const applied = new Set<string>();
    const failed: string[] = [];
    for (const r of rows) {
      if (r.rolled_back_at !== null) continue;
      if (r.finished_at !== null) applied.add(r.migration_name);
      else failed.push(r.migration_name);
    }
    return { applied, failed };
  } finally {
    db.close();
  }
}
