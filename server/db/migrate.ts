import fs from "node:fs";
import path from "node:path";
import { redactDatabaseUrl, type DatabaseKind, type DatabaseTarget } from "./database-url";
import { migrationAdapterFactory } from "./migration-adapters";
import { loadMigrations } from "./migrations-folder";
import { readPostgresMigrationTable } from "./postgres-migration-table";
import { readSqliteMigrationTable } from "./sqlite-migration-table";
import { createSchemaEngine, noFilters } from "./schema-engine";

export interface MigrationPaths {
  schemaPath: string;
  migrationsDir: string;
}

export interface MigrateOptions {
  /** Folder holding `prisma/` and `node_modules/` (default: the working directory). */
  projectRoot?: string;
  /** Override the schema file (default: `migrationPaths()`). */
  schemaPath?: string;
  /** Override the migrations folder (default: `migrationPaths()`). */
  migrationsDir?: string;
  /** Receives the schema engine's tracing output (JSON lines). */
  log?: (line: string) => void;
  /** SQLite: how long to wait for another connection's lock (ms, default 10 000). */
  busyTimeoutMs?: number;
}

export class MigrationError extends Error {
  readonly code = "MIGRATION_FAILED";
}

/**
 * Where the schema and the committed migrations of each database kind live. SQLite (the embedded default) uses
 * `prisma/`; PostgreSQL has its own copy of the schema and its own migrations under `prisma/postgresql/`.
 */
export function migrationPaths(kind: DatabaseKind, projectRoot: string = process.cwd()): MigrationPaths {
  const base = kind === "sqlite" ? path.join(projectRoot, "prisma") : path.join(projectRoot, "prisma", "postgresql");
  return { schemaPath: path.join(base, "schema.prisma"), migrationsDir: path.join(base, "migrations") };
}

/** The effective schema and migrations paths for a database kind and options (overrides resolved against the project root). */
export function resolveMigrationPaths(kind: DatabaseKind, opts: MigrateOptions = {}): MigrationPaths {
  const root = opts.projectRoot ?? process.cwd();
  const defaults = migrationPaths(kind, root);
  return {
    schemaPath: opts.schemaPath ? path.resolve(root, opts.schemaPath) : defaults.schemaPath,
    migrationsDir: opts.migrationsDir ? path.resolve(root, opts.migrationsDir) : defaults.migrationsDir,
  };
}

function lockedMessage(file: string, timeoutMs: number): string {
  return (
    `The SQLite database ${file} is in use by another connection (a running app, worker or ` +
    `migration?), and applying migrations needs it alone: the lock was not granted within ${timeoutMs} ms. ` +
    `Stop the other process, then run the migrations again (npm run db:migrate).`
  );
}

const isLockError = (message: string) => /SocketTimeout|database is locked|SQLITE_BUSY/i.test(message);

/**
 * Apply the committed migrations that the database has not applied yet (Prisma's `migrate deploy`), through the
 * WASM schema engine. Creates the SQLite file and its folder when missing. Safe to run on every start: an
 * up-to-date database applies nothing (its migrations table is then only read, without the engine; a SQLite file
 * even while other processes use it). Every
 * connection it opened is closed before it returns, so a PrismaClient can write to the database right after.
 */
export async function migrateDatabase(database: DatabaseTarget, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const { schemaPath, migrationsDir } = resolveMigrationPaths(database.kind, opts);
  const busyTimeoutMs = opts.busyTimeoutMs ?? 10_000;
  const migrationsList = loadMigrations(migrationsDir);
  const names = migrationsList.migrationDirectories.map((d) => d.path);
  if (names.length === 0) {
    throw new MigrationError(
      `No migrations found in ${migrationsDir}. Restore the committed prisma migrations folder, or set MIGRATIONS_DIR to it.`,
    );
  }
  if (database.kind === "sqlite") {
    const file = database.file;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let table: ReturnType<typeof readSqliteMigrationTable>;
    try {
      table = readSqliteMigrationTable(file, busyTimeoutMs);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new MigrationError(
        isLockError(reason)
          ? lockedMessage(file, busyTimeoutMs)
          : `Cannot read the SQLite database ${file}: ${reason}. Is DATABASE_URL pointing at the right file?`,
        { cause: err },
      );
    }
    if (table && table.failed.length === 0 && names.every((n) => table.applied.has(n))) return { applied: [] };
  } else {
    let table: Awaited<ReturnType<typeof readPostgresMigrationTable>>;
    try {
      table = await readPostgresMigrationTable(database.url);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new MigrationError(
        `Cannot connect to the PostgreSQL database ${redactDatabaseUrl(database.url)}: ${reason}. Is DATABASE_URL right and the server up?`,
        { cause: err },
      );
    }
    if (table && table.failed.length === 0 && names.every((n) => table.applied.has(n))) return { applied: [] };
  }

  const engine = await createSchemaEngine(schemaPath, await migrationAdapterFactory(database, { busyTimeoutMs }), {
    projectRoot: opts.projectRoot,
    log: opts.log,
  });
  try {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return { applied: out.appliedMigrationNames };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (database.kind === "sqlite" && isLockError(reason)) {
      throw new MigrationError(lockedMessage(database.file, busyTimeoutMs), { cause: err });
    }
    const failed = await engine
      .diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: noFilters })
      .then((d) => d.failedMigrationNames)
      .catch(() => [] as string[]);
    const which = failed.length > 0 ? `Failed migration: ${failed.join(", ")} (${migrationsDir}).\n` : "";
    throw new MigrationError(
      `Applying the migrations in ${migrationsDir} to ${redactDatabaseUrl(database.url)} failed:\n${reason}\n${which}` +
        `Fix the failed migration.sql, mark it rolled back with \`npx tsx scripts/migrate.ts resolve ${failed[0] ?? "<name>"}\` ` +
        `(same DATABASE_URL), then run \`npm run db:migrate\` again. \`npm run db:status\` shows the state.`,
      { cause: err },
    );
  } finally {
    await engine.close();
  }
}
