import fs from "node:fs";
import type { DiagnoseMigrationHistoryOutput } from "@prisma/schema-engine-wasm";
import type { DatabaseTarget } from "./database-url";
import { resolveMigrationPaths, type MigrateOptions } from "./migrate";
import { migrationAdapterFactory } from "./migration-adapters";
import { loadMigrations } from "./migrations-folder";
import { createSchemaEngine, noFilters } from "./schema-engine";

export type MigrationStatus = DiagnoseMigrationHistoryOutput;

/** A database that has never been migrated: every committed migration is pending. */
function neverMigrated(names: string[]): MigrationStatus {
  return {
    editedMigrationNames: [],
    failedMigrationNames: [],
    hasMigrationsTable: false,
    history: names.length > 0 ? { diagnostic: "databaseIsBehind", unappliedMigrationNames: names } : null,
  };
}

/**
 * Compare the database's migration history with the committed migrations (Prisma's `migrate status`): pending,
 * edited and failed migrations. Read-only; a missing SQLite file is reported as never migrated (and not created).
 */
export async function migrationStatus(database: DatabaseTarget, opts: MigrateOptions = {}): Promise<MigrationStatus> {
  const { schemaPath, migrationsDir } = resolveMigrationPaths(database.kind, opts);
  const migrationsList = loadMigrations(migrationsDir);
  const names = migrationsList.migrationDirectories.map((d) => d.path);
  if (database.kind === "sqlite" && !fs.existsSync(database.file)) return neverMigrated(names);

  const engine = await createSchemaEngine(schemaPath, await migrationAdapterFactory(database), {
    projectRoot: opts.projectRoot,
    log: opts.log,
  });
  try {
    return await engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: noFilters });
  } catch (err) {
    // The engine throws P1014 instead of reporting `hasMigrationsTable: false` on a database without the table.
    if (err instanceof Error && /P1014|_prisma_migrations/.test(err.message)) return neverMigrated(names);
    throw err;
  } finally {
    await engine.close();
  }
}

/** One line per finding, for people. */
export function describeMigrationStatus(status: MigrationStatus): string[] {
  const lines: string[] = [];
  if (!status.hasMigrationsTable) lines.push("The database has never been migrated.");
  const h = status.history;
  if (h?.diagnostic === "databaseIsBehind") lines.push(`Pending: ${h.unappliedMigrationNames.join(", ")}`);
  if (h?.diagnostic === "migrationsDirectoryIsBehind") {
    lines.push(`Applied to the database but missing from the folder: ${h.unpersistedMigrationNames.join(", ")}`);
  }
  if (h?.diagnostic === "historiesDiverge") {
    lines.push(
      `Histories diverge after ${h.lastCommonMigrationName ?? "(the start)"}: the database has ` +
        `${h.unpersistedMigrationNames.join(", ") || "nothing else"}, the folder has ${h.unappliedMigrationNames.join(", ") || "nothing else"}`,
    );
  }
  if (status.failedMigrationNames.length > 0) lines.push(`Failed: ${status.failedMigrationNames.join(", ")}`);
  if (status.editedMigrationNames.length > 0) {
    lines.push(`Edited after being applied: ${status.editedMigrationNames.join(", ")}`);
  }
  if (lines.length === 0) lines.push("Database schema is up to date.");
  return lines;
}
