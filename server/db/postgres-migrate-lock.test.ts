import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTarget } from "./database-url";
import { migrateDatabase, migrationPaths } from "./migrate";
import { loadMigrations } from "./migrations-folder";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "./test-postgres";

/**
 * Several processes starting at once on a fresh PostgreSQL database each migrate it: one applies the migrations, the
 * others wait for its advisory lock and then find nothing left to apply. Runs when TEST_DATABASE_URL names PostgreSQL.
 */
const adminUrl = testPostgresAdminUrl();
const projectRoot = path.resolve(import.meta.dirname, "../..");

describe.skipIf(!adminUrl)("migrations on PostgreSQL from many processes at once", () => {
  const dbName = uniqueDatabaseName("migrate_lock");
  let url: string;
  beforeAll(async () => {
    url = await createDatabase(adminUrl!, dbName);
  });
  afterAll(async () => {
    if (adminUrl) await dropDatabase(adminUrl, dbName);
  });

  it("applies every migration once when four migrate the same fresh database concurrently", async () => {
    const names = loadMigrations(migrationPaths("postgresql", projectRoot).migrationsDir).migrationDirectories.map((d) => d.path);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => migrateDatabase(databaseTarget(url), { projectRoot })));
    const failures = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
    expect(failures).toEqual([]);
    const applied = results.map((r) => (r as PromiseFulfilledResult<{ applied: string[] }>).value.applied);
    expect(applied.filter((a) => a.length > 0)).toEqual([names]);
    expect(await migrateDatabase(databaseTarget(url), { projectRoot })).toEqual({ applied: [] });
  }, 120_000);
});
