import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "@/server/db/client";
import { databaseTarget } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { wakeTarget, wakesHere } from "@/server/db/pg-boss/wake-target";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "@/server/db/test-postgres";
import { startPgWork, type PgWork } from "./pg-work";
import { startWorkerHeartbeat } from "./worker-heartbeat";

/**
 * Targeted wake-ups on PostgreSQL: a job queued by one process wakes one live worker, the one its key names, not
 * every worker; a worker that does not know the live workers yet wakes for everything. PostgreSQL only
 * (TEST_DATABASE_URL).
 */
const adminUrl = testPostgresAdminUrl();
const projectRoot = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("which worker a work notification wakes", () => {
  it("names one live worker per key, and wakes everyone when it cannot tell", () => {
    const owners = ["h:1", "h:2", "h:3"];
    for (const key of ["run:a", "run:b", "effect:c", "job:d"]) {
      expect(owners.filter((self) => wakesHere(key, { self, owners }))).toEqual([wakeTarget(key, owners)]);
    }
    expect(wakesHere(null, { self: "h:1", owners })).toBe(true);
    expect(wakesHere("run:a", null)).toBe(true);
    expect(wakesHere("run:a", { self: "h:9", owners })).toBe(true);
  });
});

describe.skipIf(!adminUrl)("targeted wake-ups on pg-boss", () => {
  const dbName = uniqueDatabaseName("wake");
  let url: string;
  const prismas: PrismaClient[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  const log = () => {};

  beforeAll(async () => {
    url = await createDatabase(adminUrl!, dbName);
    await migrateDatabase(databaseTarget(url), { projectRoot });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
    for (const p of prismas) await p.$disconnect();
    if (adminUrl) await dropDatabase(adminUrl, dbName);
  });

  async function start(runWorkers: boolean): Promise<{ work: PgWork; prisma: PrismaClient }> {
    const prisma = createPrismaClient(databaseTarget(url));
    prismas.push(prisma);
    const work = await startPgWork({ databaseUrl: url, prisma, runWorkers, leaseSeconds: 5, log });
    closers.push(() => work.close());
    return { work, prisma };
  }

  it("wakes one worker per queued job once both know each other, every worker before", async () => {
    const workers = await Promise.all(["wake-host:1", "wake-host:2"].map(async (id) => ({ id, ...(await start(true)), wakes: 0 })));
    const app = await start(false);
    const store = app.work.persistence.workStore!(app.prisma, app.prisma);
    for (const w of workers) await w.work.listen(() => w.wakes++, () => {});
    const enqueue = async (n: number, tag: string) => {
      for (let i = 0; i < n; i++) await store.enqueue({ kind: "effect", threadId: null, payload: {}, dedupeKey: `effect:${tag}-${i}`, runAt: new Date(Date.now() + 60_000) });
    };
    const settle = async (total: number) => {
      for (let i = 0; i < 100 && workers.reduce((a, w) => a + w.wakes, 0) < total; i++) await sleep(20);
      await sleep(200);
    };
    // Before either worker read the heartbeats, each wakes for every job.
    await settle(2); // the wake each listener gives itself when it connects
    for (const w of workers) w.wakes = 0;
    await enqueue(4, "before");
    await settle(8);
    expect(workers.map((w) => w.wakes)).toEqual([4, 4]);
    // Both beat, and each has read the live workers (its claim's dead-worker check): one wake per job.
    for (const w of workers) {
      const beat = await startWorkerHeartbeat(w.work.leases, w.id);
      closers.push(() => beat.stop());
    }
    for (const w of workers) await w.work.persistence.workStore!(w.prisma, w.prisma).claim(w.id, 1, 5000);
    for (const w of workers) w.wakes = 0;
    await enqueue(20, "after");
    await settle(20);
    expect(workers.reduce((a, w) => a + w.wakes, 0)).toBe(20);
    expect(workers.every((w) => w.wakes > 0)).toBe(true);
  });
});
