import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "./client";
import { databaseTarget, type DatabaseTarget } from "./database-url";
import { migrateDatabase, migrationPaths } from "./migrate";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "./test-postgres";
import { testDatabaseKind } from "./test-database";

/**
 * The migration that makes usernames case-insensitive, on a database that already holds accounts whose names differ
 * only by case: it is applied on top of the migrations before it, as on an existing installation.
 */
const MIGRATION = "20261125070331_case_insensitive_usernames";
const projectRoot = path.resolve(import.meta.dirname, "../..");
const kind = testDatabaseKind();
let tmp: string;
let target: DatabaseTarget;
let drop: () => Promise<void>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-usernames-"));
  if (kind === "postgresql") {
    const admin = testPostgresAdminUrl()!;
    const name = uniqueDatabaseName("usernames");
    target = databaseTarget(await createDatabase(admin, name));
    drop = () => dropDatabase(admin, name);
  } else {
    target = databaseTarget(`file:${path.join(tmp, "app.db")}`);
    drop = async () => {};
  }
});
afterAll(async () => {
  await drop?.();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe(`case-insensitive usernames: the migration on existing accounts (${kind})`, () => {
  it("lower-cases every username and renames the younger of two names that differ only by case", async () => {
    const { migrationsDir } = migrationPaths(kind, projectRoot);
    const before = path.join(tmp, "migrations-before");
    fs.cpSync(migrationsDir, before, { recursive: true });
    for (const d of fs.readdirSync(before)) if (d >= MIGRATION) fs.rmSync(path.join(before, d), { recursive: true, force: true });
    await migrateDatabase(target, { projectRoot, migrationsDir: before });

    // Raw SQL, so the test does not depend on columns that later migrations add.
    const prisma = createPrismaClient(target);
    const ids = ["0190a0e0-0000-7000-8000-00000000a001", "0190a0e0-0000-7000-8000-00000000a002", "0190a0e0-0000-7000-8000-00000000a003", "0190a0e0-0000-7000-8000-00000000a004"];
    const names = ["admin", "ADMIN", "Admin", "Carol"];
    try {
      for (const [i, id] of ids.entries()) {
        const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
        const values = kind === "sqlite" ? "?, ?, 'h', 'user', ?, ?" : "$1, $2, 'h', 'user', $3, $4";
        const stamp = kind === "sqlite" ? at.getTime() : at;
        await prisma.$executeRawUnsafe(`INSERT INTO "User" ("id", "username", "passwordHash", "role", "createdAt", "updatedAt") VALUES (${values})`, id, names[i], stamp, stamp);
      }
    } finally {
      await prisma.$disconnect();
    }

    await migrateDatabase(target, { projectRoot });
    const after = createPrismaClient(target);
    try {
      const rows = await after.$queryRawUnsafe<{ id: string; username: string }[]>(`SELECT "id", "username" FROM "User" ORDER BY "id"`);
      expect(rows).toEqual([
        { id: ids[0], username: "admin" },
        { id: ids[1], username: "admin-00000000a002" },
        { id: ids[2], username: "admin-00000000a003" },
        { id: ids[3], username: "carol" },
      ]);
    } finally {
      await after.$disconnect();
    }
  });
});
