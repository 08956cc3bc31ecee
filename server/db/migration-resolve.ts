import type { DatabaseTarget } from "./database-url";
import { resolveMigrationPaths, type MigrateOptions } from "./migrate";
import { migrationAdapterFactory } from "./migration-adapters";
import { loadMigrations } from "./migrations-folder";
import { createSchemaEngine, noFilters } from "./schema-engine";

/**
 * Mark a failed migration as rolled back (Prisma's `migrate resolve --rolled-back`), so that the next deploy applies
 * it again from its (fixed) migration.sql. Undo whatever part of it did run first.
 */
export async function markMigrationRolledBack(
  database: DatabaseTarget,
  name: string,
  opts: MigrateOptions = {},
): Promise<void> {
  const { schemaPath, migrationsDir } = resolveMigrationPaths(database.kind, opts);
  const migrationsList = loadMigrations(migrationsDir);
  const engine = await createSchemaEngine(
    schemaPath,
    await migrationAdapterFactory(database, { busyTimeoutMs: opts.busyTimeoutMs }),
    { projectRoot: opts.projectRoot, log: opts.log },
  );
  try {
    const status = await engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: noFilters,
    });
    if (!status.failedMigrationNames.includes(name)) {
      const failed = status.failedMigrationNames;
      throw new Error(
        `"${name}" is not a failed migration of this database; ` +
          (failed.length ? `the failed one(s): ${failed.join(", ")}.` : "no migration is in a failed state."),
      );
    }
    await engine.markMigrationRolledBack({ migrationName: name });
  } finally {
    await engine.close();
  }
}
