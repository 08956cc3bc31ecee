import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, migrationPaths } from "./migrate";
import { describeMigrationStatus, migrationStatus } from "./migration-status";
import { testDatabaseKind } from "./test-database";
import { databaseTarget } from "./database-url";

const projectRoot = path.resolve(import.meta.dirname, "../..");
let tmp: string;
let migrationsDir: string;
let names: string[];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-status-"));
  migrationsDir = path.join(tmp, "migrations");
  fs.cpSync(migrationPaths("sqlite", projectRoot).migrationsDir, migrationsDir, { recursive: true });
  names = fs
    .readdirSync(migrationsDir)
    .filter((n) => fs.statSync(path.join(migrationsDir, n)).isDirectory())
    .sort();
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// SQLite files only, whatever TEST_DATABASE_URL says: they run in the SQLite pass (PostgreSQL: postgres-migrations.test.ts).
describe.skipIf(testDatabaseKind() === "postgresql")("migrationStatus", () => {
  it("reports a missing SQLite file as never migrated, without creating it", async () => {
    const file = path.join(tmp, "missing.db");
    const status = await migrationStatus(databaseTarget(`file:${file}`), { projectRoot, migrationsDir });
    expect(status).toEqual({
      editedMigrationNames: [],
      failedMigrationNames: [],
      hasMigrationsTable: false,
      history: { diagnostic: "databaseIsBehind", unappliedMigrationNames: names },
    });
    expect(fs.existsSync(file)).toBe(false);
    expect(describeMigrationStatus(status)).toEqual([
      "The database has never been migrated.",
      `Pending: ${names.join(", ")}`,
    ]);
  });

  it("reports an empty database file as never migrated", async () => {
    const file = path.join(tmp, "empty.db");
    fs.writeFileSync(file, "");
    expect((await migrationStatus(databaseTarget(`file:${file}`), { projectRoot, migrationsDir })).hasMigrationsTable).toBe(false);
  });

  it("is up to date after deploy, then reports a new folder as pending and an edited migration as edited", async () => {
    const database = databaseTarget(`file:${path.join(tmp, "app.db")}`);
    await migrateDatabase(database, { projectRoot, migrationsDir });
    const clean = await migrationStatus(database, { projectRoot, migrationsDir });
    expect(clean).toMatchObject({
      hasMigrationsTable: true,
      history: null,
      editedMigrationNames: [],
      failedMigrationNames: [],
    });
    expect(describeMigrationStatus(clean)).toEqual(["Database schema is up to date."]);

    fs.mkdirSync(path.join(migrationsDir, "99990101000000_next"));
    fs.writeFileSync(
      path.join(migrationsDir, "99990101000000_next", "migration.sql"),
      `CREATE TABLE "Next" ("id" TEXT);`,
    );
    const first = names[0]!;
    fs.appendFileSync(path.join(migrationsDir, first, "migration.sql"), "\n-- edited\n");
    const status = await migrationStatus(database, { projectRoot, migrationsDir });
    expect(status.history).toEqual({
      diagnostic: "databaseIsBehind",
      unappliedMigrationNames: ["99990101000000_next"],
    });
    expect(status.editedMigrationNames).toEqual([first]);
    expect(describeMigrationStatus(status)).toEqual([
      "Pending: 99990101000000_next",
      `Edited after being applied: ${first}`,
    ]);
  });
});
