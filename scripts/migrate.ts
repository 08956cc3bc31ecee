/**
 * Database migrations through Prisma's WASM schema engine (the native `prisma migrate` cannot run offline).
 *
 *   npm run db:migrate                      apply pending migrations           (tsx scripts/migrate.ts deploy)
 *   npm run db:migrate:create -- <name>     write <dir>/<UTC timestamp>_<name>/migration.sql from the schema change
 *   npm run db:diff                         print the SQL between the migrations and schema.prisma
 *   npm run db:status                       pending / edited / failed migrations (`--json` for the raw report)
 *   tsx scripts/migrate.ts resolve <name>   mark a failed migration rolled back, so that deploy retries it
 *
 * Environment: DATABASE_URL (default: file:<DATA_DIR or ./data>/app.db), SCHEMA and MIGRATIONS_DIR (defaults:
 * prisma/ for SQLite, prisma/postgresql/ for PostgreSQL). `create` on a PostgreSQL URL first rewrites
 * prisma/postgresql/schema.prisma from prisma/schema.prisma (npm run db:schema:postgres).
 */
import path from "node:path";
import { databaseTarget, type DatabaseTarget } from "../server/db/database-url";
import { migrateDatabase, resolveMigrationPaths, type MigrateOptions } from "../server/db/migrate";
import { diffMigrations } from "../server/db/migration-diff";
import { markMigrationRolledBack } from "../server/db/migration-resolve";
import { describeMigrationStatus, migrationStatus } from "../server/db/migration-status";
import { ensureLockfile, writeMigration } from "../server/db/migrations-folder";
import { POSTGRES_SCHEMA, writePostgresSchema } from "../server/db/postgres-schema";

const USAGE =
  "usage: tsx scripts/migrate.ts deploy | create <name> | diff | status [--json] | resolve <failed migration>";

const projectRoot = path.resolve(import.meta.dirname, "..");
const cwd = process.cwd();
const env = (name: string) => process.env[name]?.trim() || undefined;

function database(): DatabaseTarget {
  const dataDir = env("DATA_DIR");
  return databaseTarget(env("DATABASE_URL") ?? (dataDir ? `file:${path.join(dataDir, "app.db")}` : undefined), cwd);
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const db = database();
  const opts: MigrateOptions = {
    projectRoot,
    schemaPath: env("SCHEMA") && path.resolve(cwd, env("SCHEMA")!),
    migrationsDir: env("MIGRATIONS_DIR") && path.resolve(cwd, env("MIGRATIONS_DIR")!),
  };
  const { schemaPath, migrationsDir } = resolveMigrationPaths(db.kind, opts);

  switch (cmd) {
    case "deploy": {
      const started = performance.now();
      const { applied } = await migrateDatabase(db, opts);
      const ms = Math.round(performance.now() - started);
      console.log(applied.length ? `Applied ${applied.join(", ")} in ${ms} ms.` : `No pending migrations (${ms} ms).`);
      return 0;
    }
    case "create": {
      const name = rest.find((a) => !a.startsWith("-"));
      if (!name) {
        console.error(`create needs a name, e.g. npm run db:migrate:create -- add_thread_tags\n${USAGE}`);
        return 2;
      }
      ensureLockfile(migrationsDir, db.kind);
      // The PostgreSQL schema is a derived copy: bring it up to date with prisma/schema.prisma first.
      if (db.kind === "postgresql" && !opts.schemaPath && writePostgresSchema(projectRoot)) {
        console.log(`Rewrote ${POSTGRES_SCHEMA} from prisma/schema.prisma.`);
      }
      const diff = await diffMigrations(db, opts);
      if (diff.empty) {
        console.log(
          `No schema changes: ${path.relative(cwd, schemaPath)} matches ${path.relative(cwd, migrationsDir)}.`,
        );
        return 0;
      }
      const folder = writeMigration(migrationsDir, name, diff.sql);
      console.log(
        `Wrote ${path.relative(cwd, path.join(migrationsDir, folder, "migration.sql"))}. Review it, then run npm run db:migrate.`,
      );
      return 0;
    }
    case "diff": {
      ensureLockfile(migrationsDir, db.kind);
      const diff = await diffMigrations(db, opts);
      console.log(diff.empty ? "No schema changes." : diff.sql);
      return 0;
    }
    case "status": {
      const status = await migrationStatus(db, opts);
      if (rest.includes("--json")) console.log(JSON.stringify(status, null, 2));
      else for (const line of describeMigrationStatus(status)) console.log(line);
      const clean =
        status.history === null && status.failedMigrationNames.length === 0 && status.editedMigrationNames.length === 0;
      return clean ? 0 : 1;
    }
    case "resolve": {
      const name = rest.find((a) => !a.startsWith("-"));
      if (!name) {
        console.error(`resolve needs the failed migration's folder name (see npm run db:status)\n${USAGE}`);
        return 2;
      }
      await markMigrationRolledBack(db, name, opts);
      console.log(`Marked ${name} rolled back. Fix its migration.sql if needed, then run npm run db:migrate.`);
      return 0;
    }
    default:
      console.error(cmd ? `unknown command "${cmd}"\n${USAGE}` : USAGE);
      return 2;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
// The engine can leave a timer behind (10 s on PostgreSQL): end now.
process.exit();
