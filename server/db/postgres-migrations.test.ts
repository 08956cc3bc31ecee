import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "./migrate";
import { diffMigrations } from "./migration-diff";
import { migrationStatus } from "./migration-status";
import { ensureLockfile, writeMigration } from "./migrations-folder";

/**
 * The WASM engine on PostgreSQL, with this project's adapter fixes ("char" columns, shadow database). Runs when
 * TEST_POSTGRES_URL names a database whose role may create databases, e.g.
 * TEST_POSTGRES_URL=postgresql://root@127.0.0.1:5432/postgres npx vitest run server/db/postgres-migrations.test.ts
 * The PostgreSQL copy of the schema is derived from prisma/schema.prisma (only the provider differs).
 */
const adminUrl = process.env.TEST_POSTGRES_URL;
const projectRoot = path.resolve(import.meta.dirname, "../..");

describe.skipIf(!adminUrl)("migrations on PostgreSQL", () => {
  let admin: pg.Client;
  let url: string;
  let tmp: string;
  const dbName = `studio_migrations_test_${process.pid}_${Date.now()}`;
  const shadowCount = async () =>
    Number(
      (await admin.query("SELECT count(*) AS n FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'"))
        .rows[0].n,
    );

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    const u = new URL(adminUrl!);
    u.pathname = `/${dbName}`;
    url = u.toString();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-pg-"));
  });
  afterAll(async () => {
    await admin?.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin?.end();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("generates, applies and verifies the schema's migrations, leaving no shadow database behind", async () => {
    const schemaPath = path.join(tmp, "schema.prisma");
    const migrationsDir = path.join(tmp, "migrations");
    const sqlite = fs.readFileSync(path.join(projectRoot, "prisma/schema.prisma"), "utf8");
    fs.writeFileSync(schemaPath, sqlite.replace('provider = "sqlite"', 'provider = "postgresql"'));
    const opts = { projectRoot, schemaPath, migrationsDir };
    const shadowsBefore = await shadowCount();

    ensureLockfile(migrationsDir, "postgresql");
    const diff = await diffMigrations(url, opts);
    expect(diff.empty).toBe(false);
    expect(diff.sql).toContain(`"tags" JSONB NOT NULL DEFAULT '[]'`);
    const folder = writeMigration(migrationsDir, "init", diff.sql);

    expect((await migrationStatus(url, opts)).hasMigrationsTable).toBe(false);
    expect(await migrateDatabase(url, opts)).toEqual({ applied: [folder] });
    expect(await migrateDatabase(url, opts)).toEqual({ applied: [] });
    expect(await migrationStatus(url, opts)).toMatchObject({ hasMigrationsTable: true, history: null });
    // Replaying the migrations on a shadow database describes pg_catalog "char" columns: the adapter fix at work.
    expect((await diffMigrations(url, opts)).empty).toBe(true);
    expect(await shadowCount()).toBe(shadowsBefore);
  });
});
