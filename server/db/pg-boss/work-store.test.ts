import path from "node:path";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "../client";
import { migrateDatabase } from "../migrate";
import { createPersistence } from "../persistence";
import { initialThreadState } from "@/server/runtime/kernel/initial-state";
import { leaseStore } from "../repositories/leases";
import { createDatabase, dropDatabase, testPostgresAdminUrl, uniqueDatabaseName } from "../test-postgres";
import type { WorkStore } from "@/server/runtime/ports";
import { startJobQueue, THREAD_WORK_QUEUE, WORK_CHANNEL, type JobQueue } from "./job-queue";
import { listenForWork } from "./work-notifications";
import { notifyingInsert } from "./notifying-insert";
import { prismaSqlExecutor } from "./sql-executor";
import { createPgBossWork, noteDue, pgBossWorkStore, type PgBossWork } from "./work-store";
import { databaseTarget } from "../database-url";

/**
 * The work port over pg-boss on a real PostgreSQL database, with two "processes" (two queues, two lease owners) on
 * one database. Runs when TEST_DATABASE_URL names a PostgreSQL database whose role may create databases.
 */
const adminUrl = testPostgresAdminUrl();
const projectRoot = path.resolve(import.meta.dirname, "../../..");

interface Proc {
  prisma: PrismaClient;
  queue: JobQueue;
  work: PgBossWork;
  store: WorkStore;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function claimWithin(store: WorkStore, owner: string, ms: number, leaseMs = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const items = await store.claim(owner, 10, leaseMs);
    if (items.length > 0 || Date.now() > deadline) return items;
    await sleep(100);
  }
}

describe.skipIf(!adminUrl)("the work port on pg-boss", () => {
  const dbName = uniqueDatabaseName("work");
  let url: string;
  const procs: Proc[] = [];

  async function proc(opts: { jobExpirySeconds?: number; sweepMs?: number } = {}): Promise<Proc> {
    const prisma = createPrismaClient(databaseTarget(url));
    const queue = await startJobQueue(url, { supervise: true, jobExpirySeconds: opts.jobExpirySeconds ?? 60, retryDelaySeconds: 1 });
    const work = createPgBossWork(queue, leaseStore(prisma), { deferMs: 100, sweepMs: opts.sweepMs ?? 3_600_000 });
    const p = { prisma, queue, work, store: pgBossWorkStore(prisma, work) };
    procs.push(p);
    return p;
  }

  beforeAll(async () => {
    url = await createDatabase(adminUrl!, dbName);
    await migrateDatabase(databaseTarget(url), { projectRoot });
  });
  afterAll(async () => {
    for (const p of procs) {
      await p.queue.stop().catch(() => {});
      await p.prisma.$disconnect();
    }
    if (adminUrl) await dropDatabase(adminUrl, dbName);
  });

  it("enqueues in the caller's transaction, one queued activation per thread, and hands a thread to one worker at a time", async () => {
    const a = await proc();
    const b = await proc();
    const persistence = createPersistence(a.prisma, { workStore: (db) => pgBossWorkStore(db, a.work) });
    // A rolled-back transaction leaves no job behind.
    await expect(
      persistence.transaction(async (tx) => {
        await tx.work.enqueue({ kind: "run", threadId: "t-rolled-back", dedupeKey: "run:t-rolled-back" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await persistence.transaction((tx) => tx.work.enqueue({ kind: "run", threadId: "t1", dedupeKey: "run:t1" }));
    await persistence.work.enqueue({ kind: "run", threadId: "t1", dedupeKey: "run:t1" });
    const first = await a.store.claim("worker-a", 10, 30_000);
    expect(first.map((i) => [i.kind, i.threadId, i.attempts])).toEqual([["run", "t1", 1]]);

    // New work for the running thread queues behind it; another worker may not run the thread meanwhile.
    await persistence.work.enqueue({ kind: "run", threadId: "t1", dedupeKey: "run:t1" });
    expect(await b.store.claim("worker-b", 10, 30_000)).toEqual([]);
    expect(await claimWithin(b.store, "worker-b", 600)).toEqual([]);
    expect(await a.prisma.lease.findUnique({ where: { key: "thread:t1" } })).toMatchObject({ owner: "worker-a" });

    // Once the first worker is done the queued activation goes to whoever asks.
    await a.store.complete(first[0]!.id);
    expect(await a.prisma.lease.findUnique({ where: { key: "thread:t1" } })).toBeNull();
    const second = await claimWithin(b.store, "worker-b", 10_000);
    expect(second.map((i) => i.threadId)).toEqual(["t1"]);
    await b.store.complete(second[0]!.id);
    expect(await claimWithin(a.store, "worker-a", 500)).toEqual([]);
  });

  it("delays an effect until its time, cancels it, and retries a failed job with backoff", async () => {
    const a = await proc();
    const runAt = new Date(Date.now() + 1500);
    await a.store.enqueue({ kind: "effect", threadId: "t2", payload: { effectId: "e1" }, runAt, dedupeKey: "effect:e1" });
    await a.store.enqueue({ kind: "effect", threadId: "t2", payload: { effectId: "e2" }, runAt, dedupeKey: "effect:e2" });
    expect(await a.store.claim("worker-a", 10, 30_000)).toEqual([]);
    const next = await a.store.nextRunAt();
    expect(Math.abs(next!.getTime() - runAt.getTime())).toBeLessThan(1000);
    await a.store.cancelEffect("e2");
    await sleep(1600);
    const [effect] = await claimWithin(a.store, "worker-a", 5000);
    expect(effect).toMatchObject({ kind: "effect", threadId: "t2", payload: { effectId: "e1" }, attempts: 1 });
    expect(await claimWithin(a.store, "worker-a", 300)).toEqual([]);

    await a.store.fail(effect!.id, "boom", null);
    expect(await a.store.claim("worker-a", 10, 30_000)).toEqual([]);
    const retried = await claimWithin(a.store, "worker-a", 10_000);
    expect(retried).toMatchObject([{ id: effect!.id, payload: { effectId: "e1" }, attempts: 2 }]);
    await a.store.complete(retried[0]!.id);
  });

  it("gives a dead worker's thread to another worker once its job and lease expire", async () => {
    const dead = await proc({ jobExpirySeconds: 2 });
    const live = await proc({ jobExpirySeconds: 2 });
    await dead.store.enqueue({ kind: "run", threadId: "t3", dedupeKey: "run:t3" });
    const [item] = await dead.store.claim("worker-dead", 10, 1000);
    expect(item?.threadId).toBe("t3");
    // The dead worker never completes and stops its heartbeat; its queue stops too (no maintenance from it).
    await dead.queue.stop();
    const taken = await claimWithin(live.store, "worker-live", 20_000, 30_000);
    expect(taken).toMatchObject([{ id: item!.id, threadId: "t3", attempts: 2 }]);
    expect(await live.prisma.lease.findUnique({ where: { key: "thread:t3" } })).toMatchObject({ owner: "worker-live" });
    await live.store.complete(taken[0]!.id);
  }, 40_000);

  it("takes a dead worker's thread over within seconds: a stale heartbeat, or a process gone from this machine", async () => {
    // Jobs expire after a minute: what comes back sooner comes from the heartbeat.
    const dead = await proc();
    const live = await proc();
    const { hostname } = await import("node:os");
    const gone = `${hostname()}:${2 ** 22 + 12345}`; // beyond pid_max: no such process here
    // Same host name, no such pid here, but beating: another pid namespace (a container), alive.
    const namesake = `${hostname()}:${2 ** 22 + 54321}`;
    const owners = ["elsewhere:1", gone, "elsewhere:2", namesake];
    const beat = async (owner: string, ms: number) =>
      await dead.prisma.lease.upsert({ where: { key: `worker:${owner}` }, create: { key: `worker:${owner}`, owner, expiresAt: new Date(Date.now() + ms) }, update: { expiresAt: new Date(Date.now() + ms) } });
    await beat(owners[0]!, 6000);
    // Gone from this machine and silent for a beat and a half (last renewed 3.5 s ago).
    await beat(owners[1]!, 2500);
    await beat(owners[2]!, 6000);
    await beat(owners[3]!, 6000);
    const items = [];
    for (const [i, owner] of owners.entries()) {
      await dead.store.enqueue({ kind: "run", threadId: `t-dead-${i}`, dedupeKey: `run:t-dead-${i}` });
      items.push(...(await dead.store.claim(owner, 10, 30_000)));
    }
    expect(items.map((i) => i.threadId)).toEqual(["t-dead-0", "t-dead-1", "t-dead-2", "t-dead-3"]);
    // The process of `gone` is not on this machine and missed a beat: its thread is taken over at once; the others
    // still beat.
    const first = await claimWithin(live.store, "worker-live", 3000);
    expect(first.map((i) => [i.threadId, i.attempts])).toEqual([["t-dead-1", 2]]);
    // `elsewhere:1` stops beating; `elsewhere:2` keeps on: only the first one's thread comes back.
    const keepBeating = setInterval(() => void Promise.all([beat(owners[2]!, 6000), beat(owners[3]!, 6000)]), 500);
    try {
      const started = Date.now();
      const second = await claimWithin(live.store, "worker-live", 15_000);
      expect(second.map((i) => [i.threadId, i.attempts])).toEqual([["t-dead-0", 2]]);
      expect(Date.now() - started).toBeLessThan(9000);
      expect(await claimWithin(live.store, "worker-live", 1500)).toEqual([]);
      expect(await live.prisma.lease.findUnique({ where: { key: "thread:t-dead-2" } })).toMatchObject({ owner: "elsewhere:2" });
      expect(await live.prisma.lease.findUnique({ where: { key: "thread:t-dead-3" } })).toMatchObject({ owner: namesake });
      expect(await live.prisma.lease.findUnique({ where: { key: "thread:t-dead-0" } })).toMatchObject({ owner: "worker-live" });
      for (const i of [...first, ...second]) await live.store.complete(i.id);
    } finally {
      clearInterval(keepBeating);
      await dead.store.complete(items[2]!.id);
      await dead.store.complete(items[3]!.id);
      await dead.prisma.lease.deleteMany({ where: { key: { startsWith: "worker:" } } });
    }
  }, 40_000);

  it("keeps an activation that outlives its job's expiry exclusive while its worker renews the lease", async () => {
    const a = await proc({ jobExpirySeconds: 2 });
    const b = await proc({ jobExpirySeconds: 2 });
    await a.store.enqueue({ kind: "run", threadId: "t4", dedupeKey: "run:t4" });
    const [item] = await a.store.claim("worker-a", 10, 1500);
    const heartbeat = setInterval(() => void a.store.extendLeases("worker-a", 1500), 300);
    try {
      // pg-boss expires the job and offers it again; worker b sees the thread leased and puts the job back.
      expect(await claimWithin(b.store, "worker-b", 6000)).toEqual([]);
      const putBack = await b.prisma.$queryRawUnsafe<{ data: { deferrals?: number } }[]>(
        `SELECT data FROM pgboss.job WHERE singleton_key = 'run:t4' AND state = 'created'`,
      );
      expect(putBack.map((j) => j.data.deferrals! >= 1)).toEqual([true]);
    } finally {
      clearInterval(heartbeat);
    }
    await a.store.complete(item!.id);
    // The job that came back runs once the thread is free (an activation that finds the thread settled).
    expect((await claimWithin(b.store, "worker-b", 10_000)).map((i) => i.threadId)).toEqual(["t4"]);
  }, 30_000);

  it("starts in several processes at once on a database without the pg-boss schema", async () => {
    const fresh = uniqueDatabaseName("boss");
    const freshUrl = await createDatabase(adminUrl!, fresh);
    try {
      const queues = await Promise.all([1, 2, 3].map(() => startJobQueue(freshUrl, { supervise: true, jobExpirySeconds: 60 })));
      try {
        const id = await queues[0]!.boss.send(THREAD_WORK_QUEUE, { kind: "run", threadId: "t5", payload: {} });
        expect((await queues[2]!.boss.fetch(THREAD_WORK_QUEUE)).map((j) => j.id)).toEqual([id]);
      } finally {
        for (const q of queues) await q.stop();
      }
    } finally {
      await dropDatabase(adminUrl!, fresh);
    }
  });

  it("re-queues a running thread whose job was never queued (its process died between commit and enqueue)", async () => {
    const a = await proc({ sweepMs: 0 });
    const persistence = createPersistence(a.prisma);
    const orphan = await persistence.threads.create({ agentId: "chat", state: initialThreadState(), status: "running" });
    const busy = await persistence.threads.create({ agentId: "chat", state: initialThreadState(), status: "running" });
    await a.work.leases.acquire(`thread:${busy.id}`, "worker-elsewhere", 60_000);
    const items = await claimWithin(a.store, "worker-a", 5000);
    expect(items.map((i) => [i.kind, i.threadId])).toEqual([["run", orphan.id]]);
    await a.store.complete(items[0]!.id);
  });
  it("does not queue a second run for a thread whose job a worker fetched but whose lease it has not taken yet", async () => {
    const a = await proc({ sweepMs: 0 });
    const persistence = createPersistence(a.prisma);
    const thread = await persistence.threads.create({ agentId: "chat", state: initialThreadState(), status: "running" });
    await a.store.enqueue({ kind: "run", threadId: thread.id, dedupeKey: `run:${thread.id}` });
    // Fetched (active) by some worker that has not reached its lease yet: the sweep must see the job.
    const [job] = await a.queue.boss.fetch(THREAD_WORK_QUEUE, { batchSize: 1 });
    expect(job).toBeDefined();
    const items = await a.store.claim("worker-a", 10, 30_000);
    // Threads other tests left running may be queued here; this one is not.
    expect(items.filter((i) => i.threadId === thread.id)).toEqual([]);
    for (const i of items) await a.store.complete(i.id);
    const { rows } = await (a.queue.boss.getDb() as PgBoss.Db).executeSql(`SELECT count(*)::int AS n FROM pgboss.job WHERE singleton_key = $1`, [`run:${thread.id}`]);
    expect(rows[0]!.n).toBe(1);
    await a.queue.boss.complete(THREAD_WORK_QUEUE, job!.id);
  });
  it("asks the queue for the next start at most once a second; a delayed job notified meanwhile is known at once", async () => {
    const a = await proc();
    const b = await proc();
    const listening = await listenForWork(url, (due) => due !== null && noteDue(a.work, due));
    try {
      await sleep(1100);
      await a.store.nextRunAt(); // asks the queue (other tests' jobs may wait there: what it found is dropped below)
      const asked = a.work.lastDueCheck;
      expect(Date.now() - asked).toBeLessThan(500);
      a.work.knownDue = null;
      const runAt = new Date(Date.now() + 3000);
      await b.store.enqueue({ kind: "effect", threadId: "t-due", payload: { effectId: "e-due" }, runAt, dedupeKey: "effect:e-due" });
      // Within the second a's answer comes from what it heard: b's notification carried the start.
      let next: Date | null = null;
      for (let i = 0; i < 50 && !next; i++) {
        next = await a.store.nextRunAt();
        if (!next) await sleep(10);
      }
      expect(next && Math.abs(next.getTime() - runAt.getTime())).toBeLessThan(100);
      expect(a.work.lastDueCheck).toBe(asked); // not asked again
      await b.store.cancelEffect("e-due");
    } finally {
      await listening.close();
    }
  });

  it("sends a job's INSERT and its NOTIFY as one statement; a duplicate is skipped and still notifies", async () => {
    const a = await proc();
    const heard: string[] = [];
    const listening = await listenForWork(url, (_due, key) => void (key && heard.push(key)));
    const statements: string[] = [];
    const counting: PgBoss.Db = {
      executeSql: (text, values) => {
        statements.push(text);
        return prismaSqlExecutor(a.prisma).executeSql(text, values);
      },
    };
    try {
      const send = (db: PgBoss.Db) => a.queue.boss.send(THREAD_WORK_QUEUE, { kind: "run", threadId: "t-n", payload: {} }, { singletonKey: "run:t-n", db });
      const first = notifyingInsert(counting, WORK_CHANNEL, ";run:t-n");
      expect(await send(first.db)).toMatch(/^[0-9a-f-]{36}$/);
      const second = notifyingInsert(counting, WORK_CHANNEL, ";run:t-n");
      expect(await send(second.db)).toBeNull(); // one queued job per key
      expect([first.sent(), second.sent(), statements.length]).toEqual([true, true, 2]);
      await expect.poll(() => heard.filter((k) => k === "run:t-n").length).toBe(2);
      const { rows } = await prismaSqlExecutor(a.prisma).executeSql(`SELECT count(*)::int AS n FROM pgboss.job WHERE singleton_key = $1`, ["run:t-n"]);
      expect(rows[0]!.n).toBe(1);
    } finally {
      await listening.close();
    }
  });
});
