/**
 * Vitest global setup for runs on PostgreSQL (TEST_DATABASE_URL set): migrate one template database for the whole
 * run, hand its name to the test processes (TEST_DATABASE_TEMPLATE), and drop it at the end. Each test database is
 * then a `CREATE DATABASE … TEMPLATE` copy (server/db/test-database.ts). Does nothing on SQLite.
 */
import path from "node:path";
import { migrateDatabase } from "@/server/db/migrate";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "@/server/db/test-postgres";
import { databaseTarget } from "@/server/db/database-url";

const projectRoot = path.resolve(import.meta.dirname, "../..");

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const adminUrl = testPostgresAdminUrl();
  if (!adminUrl) return;
  const name = uniqueDatabaseName("template");
  const started = performance.now();
  try {
    await migrateDatabase(databaseTarget(await createDatabase(adminUrl, name)), { projectRoot });
  } catch (err) {
    await dropDatabase(adminUrl, name).catch(() => {});
    throw err;
  }
  process.env.TEST_DATABASE_TEMPLATE = name;
  console.log(`[db] PostgreSQL test template ${name} migrated in ${Math.round(performance.now() - started)} ms`);
  return async () => {
    await dropDatabase(adminUrl, name);
  };
}
