import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient, type PrismaClient } from "./client";
import { migrateDatabase } from "./migrate";

/**
 * Real, migrated SQLite databases for tests. The committed migrations are applied once per process to a template
 * file; each test database is a copy of it, so a test file pays for the migration once (about 0.5 s) and each
 * further database costs a file copy.
 */

export interface TestDatabase {
  /** `file:<absolute path>` */
  url: string;
  file: string;
  /** The folder holding the file (removed by `cleanup`). */
  dir: string;
  prisma: PrismaClient;
  /** Disconnect and delete the folder. */
  cleanup(): Promise<void>;
}

const projectRoot = path.resolve(import.meta.dirname, "../..");
let template: Promise<string> | undefined;

async function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-db-template-"));
    const file = path.join(dir, "template.db");
    await migrateDatabase(`file:${file}`, { projectRoot });
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    return file;
  })();
  return template;
}

/** A fresh migrated SQLite database in its own temp folder, with a connected-on-demand PrismaClient. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const source = await migratedTemplate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-db-"));
  const file = path.join(dir, "app.db");
  fs.copyFileSync(source, file);
  const url = `file:${file}`;
  const prisma = createPrismaClient(url);
  return {
    url,
    file,
    dir,
    prisma,
    async cleanup() {
      await prisma.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
