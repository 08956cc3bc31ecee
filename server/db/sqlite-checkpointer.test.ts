/** WAL checkpoints on a worker thread: the database file catches up with the WAL without the app's connection doing it. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "./client";
import { BACKSTOP_PAGES } from "./sqlite-checkpointer";
import { databaseTarget } from "./database-url";

const dirs: string[] = [];
const clients: PrismaClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.$disconnect();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh database file with ~2 MiB (about 500 pages: under both thresholds) written into its WAL. */
async function writeTwoMiB(backgroundCheckpoint: boolean): Promise<{ prisma: PrismaClient; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-checkpoint-"));
  dirs.push(dir);
  const file = path.join(dir, "app.db");
  const prisma = createPrismaClient(databaseTarget(`file:${file}`), { backgroundCheckpoint });
  clients.push(prisma);
  await prisma.$executeRawUnsafe("CREATE TABLE blob_rows (body TEXT NOT NULL)");
  const body = "x".repeat(4000);
  await prisma.$transaction(async (tx) => {
    for (let i = 0; i < 512; i++) await tx.$executeRawUnsafe("INSERT INTO blob_rows (body) VALUES (?)", body);
  });
  return { prisma, file };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("background WAL checkpoints (SQLite)", () => {
  it("copy committed pages into the database file from another thread; the app's connection only has a backstop", async () => {
    const { prisma, file } = await writeTwoMiB(true);
    const [row] = await prisma.$queryRawUnsafe<{ wal_autocheckpoint: number | bigint }[]>("PRAGMA wal_autocheckpoint");
    expect(Number(row!.wal_autocheckpoint)).toBe(BACKSTOP_PAGES);
    const deadline = Date.now() + 5_000;
    while (fs.statSync(file).size < 2_000_000 && Date.now() < deadline) await sleep(25);
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(2_000_000);
    const [count] = await prisma.$queryRawUnsafe<{ n: number | bigint }[]>("SELECT COUNT(*) AS n FROM blob_rows");
    expect(Number(count!.n)).toBe(512);
  });

  it("without it, the same writes stay in the WAL until a commit crosses the threshold", async () => {
    const { file } = await writeTwoMiB(false);
    await sleep(400);
    expect(fs.statSync(file).size).toBeLessThan(1_000_000);
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThanOrEqual(2_000_000);
  });

  it("checkpoint the rest and end the thread when the client disconnects", async () => {
    const { prisma, file } = await writeTwoMiB(true);
    await prisma.$disconnect();
    clients.splice(clients.indexOf(prisma), 1);
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(2_000_000);
    // The last connection closed: SQLite folded the WAL into the file and removed it.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });
});
