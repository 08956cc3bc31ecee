import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "./client";
import { migrateDatabase, migrationPaths } from "./migrate";
import { diffMigrations } from "./migration-diff";
import { writeMigration } from "./migrations-folder";
import { testDatabaseKind } from "./test-database";
import { databaseTarget } from "./database-url";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const committed = migrationPaths("sqlite", projectRoot);
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-sync-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// SQLite files only, whatever TEST_DATABASE_URL says: they run in the SQLite pass (PostgreSQL: postgres-migrations.test.ts).
describe.skipIf(testDatabaseKind() === "postgresql")("committed migrations and schema.prisma", () => {
  it("are in sync: replaying the migrations gives exactly the schema (else: npm run db:migrate:create -- <name>)", async () => {
    const diff = await diffMigrations(databaseTarget("file:./unused.db"), { projectRoot });
    expect(diff.sql.trim()).toBe("-- This is an empty migration.");
    expect(diff.empty).toBe(true);
    expect(fs.existsSync(path.join(projectRoot, "unused.db"))).toBe(false); // a diff never opens the database file
  });

  it("a schema change without a migration is detected, and the generated migration applies on top of the old ones", async () => {
    const schemaPath = path.join(tmp, "schema.prisma");
    const migrationsDir = path.join(tmp, "migrations");
    fs.cpSync(committed.migrationsDir, migrationsDir, { recursive: true });
    // A new JSON column with a default on an existing table: SQLite must redefine the table, and the engine's
    // unquoted JSON default has to be quoted for the script to run at all.
    const changed = fs
      .readFileSync(committed.schemaPath, "utf8")
      .replace(/(model Thread \{\n)/, '$1  labels Json @default("{\\"x\\": [1, \\"it\'s\\"]}")\n');
    expect(changed).toContain("labels Json");
    fs.writeFileSync(schemaPath, changed);

    // The database exists and holds data before the change.
    const database = databaseTarget(`file:${path.join(tmp, "app.db")}`);
    await migrateDatabase(database, { projectRoot, migrationsDir });
    const before = createPrismaClient(database);
    await before.thread.create({ data: { id: "t1", agentId: "a", rootAgentId: "a", tags: ["kept"] } });
    await before.$disconnect();

    const diff = await diffMigrations(database, { projectRoot, schemaPath, migrationsDir });
    expect(diff.empty).toBe(false);
    expect(diff.sql).toContain(`"labels" JSONB NOT NULL DEFAULT '{"x": [1, "it''s"]}'`);

    const folder = writeMigration(migrationsDir, "add labels", diff.sql);
    expect(folder).toMatch(/^\d{14}_add_labels$/);
    expect((await migrateDatabase(database, { projectRoot, schemaPath, migrationsDir })).applied).toEqual([folder]);
    expect((await diffMigrations(database, { projectRoot, schemaPath, migrationsDir })).empty).toBe(true);

    // The old row survived the table redefinition and got the default.
    const Database = (await import("better-sqlite3")).default;
    const raw = new Database(path.join(tmp, "app.db"), { readonly: true });
    try {
      expect(raw.prepare(`SELECT "tags", "labels" FROM "Thread" WHERE "id" = 't1'`).get()).toEqual({
        tags: '["kept"]',
        labels: '{"x": [1, "it\'s"]}',
      });
    } finally {
      raw.close();
    }
  });
});
