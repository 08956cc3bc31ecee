import fs from "node:fs";
import path from "node:path";
import type { DatabaseTarget } from "./database-url";
import { resolveMigrationPaths, type MigrateOptions } from "./migrate";
import { migrationAdapterFactory, sqliteMigrationAdapterFactory } from "./migration-adapters";
import { isEmptyMigration, LOCKFILE_NAME, loadMigrations, schemaFiles } from "./migrations-folder";
import { quoteSqliteJsonDefaults } from "./sqlite-json-defaults";
import { createSchemaEngine, noFilters, type MigrationEngine } from "./schema-engine";

export interface MigrationDiff {
  /** The SQL that takes a database from the committed migrations to the schema (`prisma migrate diff`). */
  sql: string;
  /** True when the migrations already produce exactly the schema. */
  empty: boolean;
}

/** Diff committed migrations → schema with an open engine (the migrations are replayed on a shadow database). */
export async function diffWithEngine(
  engine: MigrationEngine,
  schemaPath: string,
  migrationsDir: string,
): Promise<MigrationDiff> {
  if (!fs.existsSync(path.join(migrationsDir, LOCKFILE_NAME))) {
    throw new Error(
      `${path.join(migrationsDir, LOCKFILE_NAME)} is missing; it names the database provider of the migrations. ` +
        `Restore it, or run \`npm run db:migrate:create -- <name>\`, which writes it.`,
    );
  }
  const { stdout } = await engine.diff({
    from: { tag: "migrations", ...loadMigrations(migrationsDir) },
    to: { tag: "schemaDatamodel", ...schemaFiles(schemaPath) },
    script: true,
    exitCode: null,
    filters: noFilters,
  });
  // Only affects unquoted JSON defaults, which only the SQLite flavour writes.
  const sql = quoteSqliteJsonDefaults(stdout ?? "");
  return { sql, empty: isEmptyMigration(sql) };
}

/**
 * Diff the committed migrations of a database kind against its schema. SQLite replays them on an in-memory shadow
 * database and never touches the database file; PostgreSQL creates (and drops) a shadow database through
 * the database's server, so the role needs CREATEDB.
 */
export async function diffMigrations(database: DatabaseTarget, opts: MigrateOptions = {}): Promise<MigrationDiff> {
  const { schemaPath, migrationsDir } = resolveMigrationPaths(database.kind, opts);
  const factory =
    database.kind === "sqlite" ? await sqliteMigrationAdapterFactory(":memory:") : await migrationAdapterFactory(database);
  const engine = await createSchemaEngine(schemaPath, factory, { projectRoot: opts.projectRoot, log: opts.log });
  try {
    return await diffWithEngine(engine, schemaPath, migrationsDir);
  } finally {
    await engine.close();
  }
}
