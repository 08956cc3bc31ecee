import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "./client";
import { databaseTarget } from "./database-url";
import { migrateDatabase, MigrationError, migrationPaths } from "./migrate";
import { markMigrationRolledBack } from "./migration-resolve";
import { loadMigrations } from "./migrations-folder";
import { testDatabaseKind } from "./test-database";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const committed = loadMigrations(migrationPaths("sqlite", projectRoot).migrationsDir).migrationDirectories.map(
  (d) => d.path,
);
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-migrate-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    return rows.map((r) => r.name);
  } finally {
    db.close();
  }
}

// SQLite files only, whatever TEST_DATABASE_URL says: they run in the SQLite pass (PostgreSQL: postgres-migrations.test.ts).
describe.skipIf(testDatabaseKind() === "postgresql")("migrateDatabase on SQLite", () => {
  it("creates the file and its folders, applies every committed migration, then applies nothing", async () => {
    expect(committed.length).toBeGreaterThan(0);
    const file = path.join(tmp, "a", "b", "app.db");
    const database = databaseTarget(`file:${file}`);

    const started = performance.now();
    const first = await migrateDatabase(database, { projectRoot });
    const firstMs = performance.now() - started;
    expect(first.applied).toEqual(committed);
    expect(fs.existsSync(file)).toBe(true);
    expect(tables(file)).toEqual(
      expect.arrayContaining(["Thread", "Message", "ThreadEvent", "WorkItem", "Lease", "User", "_prisma_migrations"]),
    );

    const again = performance.now();
    const second = await migrateDatabase(database, { projectRoot });
    const secondMs = performance.now() - again;
    expect(second.applied).toEqual([]);
    console.log(
      `[db] migrateDatabase: empty database ${Math.round(firstMs)} ms, up to date ${Math.round(secondMs)} ms`,
    );
  });

  it("resolves a relative file: URL against the working directory", async () => {
    const cwd = process.cwd();
    process.chdir(tmp);
    try {
      const { applied } = await migrateDatabase(databaseTarget("file:./rel/data/app.db"), { projectRoot });
      expect(applied).toEqual(committed);
    } finally {
      process.chdir(cwd);
    }
    expect(fs.existsSync(path.join(tmp, "rel", "data", "app.db"))).toBe(true);
  });

  it("closes its connections; an up-to-date database is checked without a lock, even while a client is connected", async () => {
    const migrationsDir = path.join(tmp, "growing-migrations");
    fs.cpSync(migrationPaths("sqlite", projectRoot).migrationsDir, migrationsDir, { recursive: true });
    const database = databaseTarget(`file:${path.join(tmp, "closed.db")}`);
    await migrateDatabase(database, { projectRoot, migrationsDir });
    const prisma = createPrismaClient(database, { busyTimeoutMs: 500 });
    try {
      const t = await prisma.thread.create({ data: { agentId: "x", rootAgentId: "x" } });
      expect((await migrateDatabase(database, { projectRoot, migrationsDir, busyTimeoutMs: 300 })).applied).toEqual([]);

      // A pending migration needs the file alone: with the client connected it fails clearly instead of hanging.
      fs.mkdirSync(path.join(migrationsDir, "99990101000000_extra"));
      fs.writeFileSync(
        path.join(migrationsDir, "99990101000000_extra", "migration.sql"),
        `CREATE TABLE "Extra" ("id" TEXT);`,
      );
      const locked = await migrateDatabase(database, { projectRoot, migrationsDir, busyTimeoutMs: 300 }).catch(
        (e: unknown) => e,
      );
      expect(locked).toBeInstanceOf(MigrationError);
      expect((locked as Error).message).toMatch(/closed\.db is in use by another connection.*Stop the other process/s);
      await prisma.$disconnect();

      expect((await migrateDatabase(database, { projectRoot, migrationsDir })).applied).toEqual(["99990101000000_extra"]);
      await prisma.thread.update({ where: { id: t.id }, data: { name: "after" } });
      expect((await prisma.thread.findUniqueOrThrow({ where: { id: t.id } })).name).toBe("after");
    } finally {
      await prisma.$disconnect();
    }
  });

  it("reports a failing migration by name with the fix, releases the database, and retries it once resolved", async () => {
    const dir = path.join(tmp, "broken-migrations");
    fs.cpSync(migrationPaths("sqlite", projectRoot).migrationsDir, dir, { recursive: true });
    const broken = path.join(dir, "99990101000000_broken", "migration.sql");
    fs.mkdirSync(path.dirname(broken));
    fs.writeFileSync(broken, `ALTER TABLE "Nope" ADD COLUMN x TEXT;`);
    const file = path.join(tmp, "broken.db");
    const database = databaseTarget(`file:${file}`);

    const err = await migrateDatabase(database, { projectRoot, migrationsDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    const message = (err as Error).message;
    expect(message).toContain(dir);
    expect(message).toContain("Failed migration: 99990101000000_broken");
    expect(message).toContain("`Nope` does not exist");
    expect(message).toContain("npx tsx scripts/migrate.ts resolve 99990101000000_broken");

    // The engine's exclusive lock is gone: another connection can write.
    const db = new Database(file, { timeout: 500 });
    try {
      db.prepare(`INSERT INTO "Lease" ("key", "owner", "expiresAt", "updatedAt") VALUES ('k', 'o', 0, 0)`).run();
    } finally {
      db.close();
    }

    // A failed migration blocks every later deploy until it is resolved.
    await expect(migrateDatabase(database, { projectRoot, migrationsDir: dir })).rejects.toThrow(/found failed migrations/);
    await expect(
      markMigrationRolledBack(database, "20990101000000_other", { projectRoot, migrationsDir: dir }),
    ).rejects.toThrow(/not a failed migration.*99990101000000_broken/);
    fs.writeFileSync(broken, `ALTER TABLE "Lease" ADD COLUMN "note" TEXT;`);
    await markMigrationRolledBack(database, "99990101000000_broken", { projectRoot, migrationsDir: dir });
    expect((await migrateDatabase(database, { projectRoot, migrationsDir: dir })).applied).toEqual([
      "99990101000000_broken",
    ]);
  });

  it("names the file when it is not a SQLite database", async () => {
    const file = path.join(tmp, "not-a-db.db");
    fs.writeFileSync(file, "this is plain text, not a database ".repeat(200));
    await expect(migrateDatabase(databaseTarget(`file:${file}`), { projectRoot })).rejects.toThrow(
      `Cannot read the SQLite database ${file}: file is not a database`,
    );
  });

  it("refuses to run without migrations, naming the folder", async () => {
    const empty = path.join(tmp, "no-migrations");
    fs.mkdirSync(empty);
    await expect(
      migrateDatabase(databaseTarget(`file:${path.join(tmp, "none.db")}`), { projectRoot, migrationsDir: empty }),
    ).rejects.toThrow(`No migrations found in ${empty}`);
  });
});
