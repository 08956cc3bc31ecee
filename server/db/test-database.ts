import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient, type PrismaClient } from "./client";
import { databaseTarget, type DatabaseKind, type DatabaseTarget } from "./database-url";
import { migrateDatabase } from "./migrate";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "./test-postgres";

/**
 * Real, migrated databases for tests: SQLite by default, PostgreSQL when TEST_DATABASE_URL is a postgres URL.
 * - SQLite: the committed migrations are applied once per process to a template file; each test database is a copy
 *   of it, so a test file pays for the migration once (about 0.5 s) and each further database costs a file copy.
 * - PostgreSQL: the Vitest global setup (tests/helpers/postgres-template.ts) migrates one template database per run;
 *   each test database is `CREATE DATABASE … TEMPLATE` of it (tens of ms) and is dropped by `cleanup`.
 */

export interface TestDatabase {
  kind: DatabaseKind;
  /** `file:<absolute path>` or `postgresql://…/<database>` */
  url: string;
  /** The database as the app's code takes it (`createPrismaClient`, `migrateDatabase`). */
  target: DatabaseTarget;
  prisma: PrismaClient;
  /** Disconnect and delete the database. */
  cleanup(): Promise<void>;
}

/** A fresh migrated database URL (no client) and how to delete it. */
export interface TestDatabaseUrl {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

const projectRoot = path.resolve(import.meta.dirname, "../..");

/** The database kind the tests run on. */
export function testDatabaseKind(): DatabaseKind {
  return testPostgresAdminUrl() ? "postgresql" : "sqlite";
}

let sqliteTemplate: Promise<string> | undefined;
async function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-db-template-"));
    const file = path.join(dir, "template.db");
    await migrateDatabase(databaseTarget(`file:${file}`), { projectRoot });
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    return file;
  })();
  return sqliteTemplate;
}

/** The run's template database, migrated by the Vitest global setup. */
function postgresTemplate(): string {
  const name = process.env.TEST_DATABASE_TEMPLATE?.trim();
  if (!name) {
    throw new Error(
      "TEST_DATABASE_URL is set but TEST_DATABASE_TEMPLATE is not: run the tests through Vitest (vitest.config.ts " +
        "sets up the template database in tests/helpers/postgres-template.ts).",
    );
  }
  return name;
}

/** A fresh migrated database: a SQLite file in its own temp folder, or a PostgreSQL database copied from the template. */
export async function createTestDatabaseUrl(label = "db"): Promise<TestDatabaseUrl> {
  const adminUrl = testPostgresAdminUrl();
  if (adminUrl) {
    const template = postgresTemplate();
    const name = uniqueDatabaseName(label);
    const url = await createDatabase(adminUrl, name, template);
    return { kind: "postgresql", url, drop: () => dropDatabase(adminUrl, name) };
  }
  const source = await migratedSqliteTemplate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-db-"));
  const file = path.join(dir, "app.db");
  fs.copyFileSync(source, file);
  return { kind: "sqlite", url: `file:${file}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh migrated database with a connected-on-demand PrismaClient. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabaseUrl();
  const target = databaseTarget(db.url);
  const prisma = createPrismaClient(target);
  return {
    kind: target.kind,
    url: db.url,
    target,
    prisma,
    async cleanup() {
      await prisma.$disconnect();
      await db.drop();
    },
  };
}
