import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "./client";
import { databaseTarget, type DatabaseTarget } from "./database-url";
import { migrateDatabase, MigrationError, migrationPaths } from "./migrate";
import { diffMigrations } from "./migration-diff";
import { migrationStatus } from "./migration-status";
import { ensureLockfile, loadMigrations, writeMigration } from "./migrations-folder";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName, withAdmin } from "./test-postgres";

/**
 * The WASM engine on PostgreSQL with the committed prisma/postgresql migrations and this project's adapter fixes
 * ("char" columns, shadow database). Runs when TEST_DATABASE_URL names a PostgreSQL database whose role may create
 * databases, e.g. TEST_DATABASE_URL=postgresql://root@127.0.0.1:5432/postgres npx vitest run server/db/postgres-migrations.test.ts
 */
const adminUrl = testPostgresAdminUrl();
const projectRoot = path.resolve(import.meta.dirname, "../..");
const committed = migrationPaths("postgresql", projectRoot);

describe.skipIf(!adminUrl)("migrations on PostgreSQL", () => {
  const dbName = uniqueDatabaseName("migrations");
  let url: string;
  let database: DatabaseTarget;
  let tmp: string;
  const shadowCount = () =>
    withAdmin(adminUrl!, async (c) =>
      Number(
        (await c.query("SELECT count(*) AS n FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'")).rows[0]
          .n,
      ),
    );

  beforeAll(async () => {
    url = await createDatabase(adminUrl!, dbName);
    database = databaseTarget(url);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-pg-"));
  });
  afterAll(async () => {
    if (adminUrl) await dropDatabase(adminUrl, dbName);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("applies the committed migrations, which replay to exactly prisma/postgresql/schema.prisma", async () => {
    const names = loadMigrations(committed.migrationsDir).migrationDirectories.map((d) => d.path);
    const shadowsBefore = await shadowCount();
    expect((await migrationStatus(database, { projectRoot })).hasMigrationsTable).toBe(false);
    expect(await migrateDatabase(database, { projectRoot })).toEqual({ applied: names });
    const started = performance.now();
    expect(await migrateDatabase(database, { projectRoot })).toEqual({ applied: [] });
    console.log(`[db] migrateDatabase on an up-to-date PostgreSQL database: ${Math.round(performance.now() - started)} ms`);
    expect(await migrationStatus(database, { projectRoot })).toMatchObject({ hasMigrationsTable: true, history: null });
    // Else: DATABASE_URL=postgresql://…/<scratch db> npm run db:migrate:create -- <name> (see prisma/schema.prisma).
    const diff = await diffMigrations(database, { projectRoot });
    expect(diff.sql.trim()).toBe("-- This is an empty migration.");
    expect(await shadowCount()).toBe(shadowsBefore);
  });

  it("names the database and the fix when PostgreSQL cannot be reached", async () => {
    const bad = new URL(url);
    bad.port = "1";
    bad.password = "hidden";
    const err = await migrateDatabase(databaseTarget(bad.toString()), { projectRoot }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toMatch(/Cannot connect to the PostgreSQL database .*:\*\*\*@127\.0\.0\.1:1\/.*Is DATABASE_URL right/);
    expect((err as Error).message).not.toContain("hidden");
  });

  it("stores and reads back every field type through the PostgreSQL client", async () => {
    const prisma = createPrismaClient(database);
    try {
      const t = await prisma.thread.create({
        data: { agentId: "a", rootAgentId: "a", tags: ["x", "ü"], state: { n: 1, nested: { ok: true } }, terminatedAt: 1_700_000_000_123_456n },
      });
      await prisma.threadFile.create({ data: { threadId: t.id, path: "/f.bin", data: Buffer.from([0, 1, 255]), size: 3 } });
      const back = await prisma.thread.findUniqueOrThrow({ where: { id: t.id }, include: { files: true } });
      expect(back.tags).toEqual(["x", "ü"]);
      expect(back.state).toEqual({ n: 1, nested: { ok: true } });
      expect(back.terminatedAt).toBe(1_700_000_000_123_456n);
      expect(back.createdAt).toBeInstanceOf(Date);
      expect(Math.abs(back.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect([...back.files[0]!.data!]).toEqual([0, 1, 255]);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("generates a migration for a schema change that applies on top of the committed ones", async () => {
    const schemaPath = path.join(tmp, "schema.prisma");
    const migrationsDir = path.join(tmp, "migrations");
    fs.cpSync(committed.migrationsDir, migrationsDir, { recursive: true });
    const changed = fs
      .readFileSync(committed.schemaPath, "utf8")
      .replace(/(model Thread \{\n)/, '$1  labels Json @default("{\\"x\\": [1, \\"it\'s\\"]}")\n');
    fs.writeFileSync(schemaPath, changed);
    const opts = { projectRoot, schemaPath, migrationsDir };
    ensureLockfile(migrationsDir, "postgresql");
    const diff = await diffMigrations(database, opts);
    expect(diff.sql).toContain(`"labels" JSONB NOT NULL DEFAULT '{"x": [1, "it''s"]}'`);
    const folder = writeMigration(migrationsDir, "add labels", diff.sql);
    expect(await migrateDatabase(database, opts)).toEqual({ applied: [folder] });
    expect((await diffMigrations(database, opts)).empty).toBe(true);
  });
});
