import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import type { WorkItemRecord, WorkStore } from "@/server/runtime/ports";
import type { Db } from "../client";
import type { LeaseStore } from "../repositories/leases";
import { PG_BOSS_SCHEMA, THREAD_WORK_QUEUE, WORK_CHANNEL, type JobQueue } from "./job-queue";
import { prismaSqlExecutor } from "./sql-executor";
import { sweepDeadWorkers } from "./dead-workers";
import { notifyingInsert } from "./notifying-insert";
import type { LiveWorkers } from "./wake-target";

interface JobData {
  kind: string;
  threadId: string | null;
  payload: Record<string, unknown>;
  /** How many times the job was put back because another worker held its thread. */
  deferrals?: number;
}

/** State shared by the stores of one process: the jobs it runs and the leases it holds for them. */
export interface PgBossWork {
  queue: JobQueue;
  /** Leases on the root client (never inside a caller's transaction). */
  leases: LeaseStore;
  /** First delay before a job whose thread is busy elsewhere is offered again (doubles up to 5 s). */
  deferMs: number;
  claimed: Map<string, { threadId: string | null; owner: string }>;
  /** How often `claim` re-queues running threads that have neither a worker nor a queued job (ms). */
  sweepMs: number;
  lastSweep: number;
  /** How often `claim` looks for dead workers whose threads to take over (ms; see dead-workers.ts). */
  deadSweepMs: number;
  lastDeadSweep: number;
  /**
   * `nextRunAt` asks the queue at most once per `dueCheckMs`; in between it answers with the earliest start this
   * process knows of (`noteDue`: its own delayed jobs and put-backs, other processes' through their notifications).
   */
  dueCheckMs: number;
  lastDueCheck: number;
  knownDue: number | null;
  /** The live workers as of the last dead-worker check: which one a work notification wakes (wake-target.ts). */
  live: LiveWorkers | null;
  log?(level: "info" | "warn", message: string, data?: Record<string, unknown>): void;
}

export function createPgBossWork(
  queue: JobQueue,
  leases: LeaseStore,
  opts: { deferMs?: number; sweepMs?: number; deadSweepMs?: number; dueCheckMs?: number; log?: PgBossWork["log"] } = {},
): PgBossWork {
  return {
    queue,
    leases,
    deferMs: opts.deferMs ?? 250,
    claimed: new Map(),
    sweepMs: opts.sweepMs ?? 30_000,
    lastSweep: Date.now(),
    deadSweepMs: opts.deadSweepMs ?? 1000,
    lastDeadSweep: 0,
    dueCheckMs: opts.dueCheckMs ?? 1000,
    lastDueCheck: 0,
    knownDue: null,
    live: null,
    log: opts.log,
  };
}

/** A job becomes due at `at` (ms): `nextRunAt` answers no later than that until it asks the queue again. */
export function noteDue(work: PgBossWork, at: number): void {
  // A little after: the job's start is set from PostgreSQL's clock, a wake just before it would find nothing.
  const due = at + 20;
  if (work.knownDue === null || due < work.knownDue) work.knownDue = due;
}

/**
 * The payload of a work notification: when the job is due (ms, empty for now), then `;` and the job's key, which
 * decides the worker it wakes (wake-target.ts). A payload without a key (an older sender) wakes every worker.
 */
export const encodeWork = (at: Date | undefined, key: string) => `${at ? String(at.getTime()) : ""};${key}`;
export function decodeWork(payload: string): { due: number | null; key: string | null } {
  const sep = payload.indexOf(";");
  const dueText = sep < 0 ? payload : payload.slice(0, sep);
  const at = dueText ? Number(dueText) : NaN;
  return { due: Number.isFinite(at) ? at : null, key: sep < 0 ? null : payload.slice(sep + 1) };
}

const THREAD_LEASE = "thread:";
const threadLease = (threadId: string) => `${THREAD_LEASE}${threadId}`;

/**
 * The runtime's work port on PostgreSQL, over pg-boss: the scheduler claims, completes and fails jobs here exactly
 * as it does WorkItem rows on SQLite.
 *
 * - `enqueue` sends a job in the caller's transaction; the job's singleton key is the item's dedupe key, and the
 *   queue's `short` policy keeps one queued job per key. `runAt` becomes `startAfter`.
 * - `claim` fetches due jobs, then takes the thread's lease (`thread:<id>`), renewed by the scheduler's heartbeat.
 *   A job whose thread is leased by another live worker (or already runs here) is put back for later, so two
 *   workers never run the same thread, also when an activation outlives the job's expiry.
 * - `fail` hands the job back to pg-boss, which retries it with exponential backoff up to the queue's retry limit.
 * - A worker that dies stops renewing its heartbeat: within seconds any worker takes its thread leases back and
 *   hands its jobs out again (dead-workers.ts). pg-boss's job expiry remains the fallback for an owner without a
 *   heartbeat. A periodic sweep re-queues running threads left without a job (see `sweep`).
 */
export function pgBossWorkStore(db: Db, work: PgBossWork): WorkStore {
  const { boss } = work.queue;
  const tx = prismaSqlExecutor(db);
  const rootDb = boss.getDb() as PgBoss.Db;
  // Per job rather than per queue, so the configured expiry holds once the queue exists.
  const expireInSeconds = work.queue.options.jobExpirySeconds;

  async function release(id: string): Promise<void> {
    const c = work.claimed.get(id);
    work.claimed.delete(id);
    if (c?.threadId && ![...work.claimed.values()].some((o) => o.threadId === c.threadId)) {
      await work.leases.release(threadLease(c.threadId), c.owner);
    }
  }

  async function putBack(job: PgBoss.JobWithMetadata<JobData>): Promise<void> {
    const deferrals = (job.data.deferrals ?? 0) + 1;
    const delayMs = Math.min(5000, work.deferMs * 2 ** Math.min(deferrals - 1, 5));
    await boss.send(THREAD_WORK_QUEUE, { ...job.data, deferrals }, { singletonKey: job.singletonKey ?? undefined, startAfter: delayMs / 1000, expireInSeconds });
    await boss.complete(THREAD_WORK_QUEUE, job.id);
    noteDue(work, Date.now() + delayMs);
  }

  const enqueueRun = (threadId: string) =>
    boss.send(THREAD_WORK_QUEUE, { kind: "run", threadId, payload: {} } satisfies JobData, { singletonKey: `run:${threadId}`, expireInSeconds });

  /**
   * A process that stored a thread's work and died before queuing its job (an API-only app has no scheduler that
   * would re-queue it at restart) leaves a running thread nobody runs. Queue a run for each running thread whose
   * lease is not held and that has no job waiting or running. A parent waiting for a blocking child that still runs
   * is left alone: it has nothing to do until the child reports (which queues its run in the same transaction), and
   * an activation now would only re-enter the pending call. Every worker sweeps: without the job check, a sweep
   * queued a second run for each thread whose job a worker had fetched but whose lease it had not yet taken (the
   * `short` policy dedupes waiting jobs only), and that run was put back, fetched again and run for nothing.
   */
  async function sweep(): Promise<void> {
    if (Date.now() - work.lastSweep < work.sweepMs) return;
    work.lastSweep = Date.now();
    const waitingForChild = { blocking: true, reportedAt: null, toolCallId: { not: null }, child: { status: "running" } };
    const running = (
      await db.thread.findMany({ where: { status: "running", NOT: { subagentEntries: { some: waitingForChild } } }, select: { id: true }, take: 10_000 })
    ).map((t) => t.id);
    if (running.length === 0) return;
    const held = new Set(
      (await db.lease.findMany({ where: { key: { in: running.map(threadLease) }, expiresAt: { gt: new Date() } }, select: { key: true } })).map((l) => l.key),
    );
    const unleased = running.filter((id) => !held.has(threadLease(id)));
    if (unleased.length === 0) return;
    const { rows } = await rootDb.executeSql(
      `SELECT singleton_key AS "key" FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND state < 'completed' AND singleton_key = ANY($2::text[])`,
      [THREAD_WORK_QUEUE, unleased.map((id) => `run:${id}`)],
    );
    const queued = new Set(rows.map((r) => String(r.key)));
    for (const id of unleased) if (!queued.has(`run:${id}`)) await enqueueRun(id);
  }

  /** Take over the threads of dead workers (their heartbeat stale, or their process gone from this machine). */
  async function takeOverDeadWorkers(self: string): Promise<void> {
    if (Date.now() - work.lastDeadSweep < work.deadSweepMs) return;
    work.lastDeadSweep = Date.now();
    const found = await sweepDeadWorkers(boss, self);
    work.live = { self, owners: found.live };
    if (found.threads.length === 0) return;
    // A thread whose job already ended gets a run (its failed jobs come back on their own, due now).
    for (const id of found.withoutJob) await enqueueRun(id);
    work.log?.("info", "took over the threads of dead workers", { workers: found.owners, threads: found.threads.length, jobs: found.jobs });
  }

  return {
    async enqueue(item) {
      const data: JobData = { kind: item.kind, threadId: item.threadId ?? null, payload: item.payload ?? {} };
      // Stringified: Prisma passes a string parameter through to `$3::jsonb` unchanged.
      const startAfter = item.runAt && item.runAt.getTime() > Date.now() ? item.runAt : undefined;
      // The `short` policy allows one waiting job per key, and keyless jobs share the empty key: an item without a
      // dedupe key gets a key of its own, so it is never dropped as a duplicate.
      const singletonKey = item.dedupeKey ?? `job:${randomUUID()}`;
      // The listeners (this process's too) learn when the job is due without asking the queue: the NOTIFY goes in the
      // job's INSERT (notifying-insert.ts), or on its own if pg-boss's statement was not the one expected.
      const payload = encodeWork(startAfter, singletonKey);
      const notifying = notifyingInsert(tx, WORK_CHANNEL, payload);
      await boss.send(THREAD_WORK_QUEUE, JSON.stringify(data) as unknown as object, {
        singletonKey,
        expireInSeconds,
        startAfter,
        db: notifying.db,
      });
      if (!notifying.sent()) await tx.executeSql(`SELECT 1 AS sent FROM (SELECT pg_notify($1, $2)) AS n`, [WORK_CHANNEL, payload]);
      if (startAfter) noteDue(work, startAfter.getTime());
    },
    async claim(owner, limit, leaseMs) {
      await sweep().catch(() => {});
      await takeOverDeadWorkers(owner).catch((err: unknown) => work.log?.("warn", "looking for dead workers failed", { error: String(err) }));
      const jobs = await boss.fetch<JobData>(THREAD_WORK_QUEUE, { batchSize: limit, includeMetadata: true });
      const busy = new Set([...work.claimed.values()].map((c) => c.threadId));
      const out: WorkItemRecord[] = [];
      for (const job of jobs) {
        const { kind, threadId, payload } = job.data;
        try {
          if (threadId && (busy.has(threadId) || !(await work.leases.acquire(threadLease(threadId), owner, leaseMs)))) {
            await putBack(job);
            continue;
          }
        } catch (err) {
          await boss.fail(THREAD_WORK_QUEUE, job.id, { message: `claiming the thread failed: ${String(err)}` }).catch(() => {});
          continue;
        }
        if (threadId) busy.add(threadId);
        work.claimed.set(job.id, { threadId, owner });
        out.push({ id: job.id, threadId, kind, payload: payload ?? {}, runAt: job.startAfter, attempts: job.retryCount + 1 });
      }
      return out;
    },
    async complete(id) {
      // The job's completion and the thread's lease at once, on two pooled connections (one round trip's wait): the
      // lease is what keeps other workers off the thread, the job's state only decides whether it runs again.
      const [completed, released] = await Promise.allSettled([boss.complete(THREAD_WORK_QUEUE, id), release(id)]);
      if (completed.status === "rejected") throw completed.reason;
      if (released.status === "rejected") throw released.reason;
    },
    async fail(id, error) {
      // pg-boss schedules the retry (exponential backoff, `retryLimit` attempts) or marks the job failed.
      try {
        await boss.fail(THREAD_WORK_QUEUE, id, { message: error });
      } finally {
        await release(id);
      }
    },
    async cancelEffect(effectId) {
      const { rows } = await tx.executeSql(
        `SELECT id FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state < 'active'`,
        [THREAD_WORK_QUEUE, `effect:${effectId}`],
      );
      if (rows.length > 0) await boss.cancel(THREAD_WORK_QUEUE, rows.map((r) => String(r.id)), { db: tx });
    },
    async extendLeases(owner, leaseMs) {
      await work.leases.extend(owner, leaseMs, THREAD_LEASE);
    },
    async releaseExpired() {
      // Nothing to release by hand: pg-boss fails expired jobs for a retry, and an expired lease can be taken over.
      return 0;
    },
    async nextRunAt() {
      // Asked after every claim, so after every wake of every worker: the queue itself is asked once per
      // `dueCheckMs` (retries pg-boss schedules, jobs of a process that notified nobody), the rest is known here.
      const now = Date.now();
      if (now - work.lastDueCheck < work.dueCheckMs) {
        if (work.knownDue !== null && work.knownDue <= now) work.knownDue = null;
        return work.knownDue === null ? null : new Date(work.knownDue);
      }
      work.lastDueCheck = now;
      const { rows } = await rootDb.executeSql(
        `SELECT min(start_after) AS next FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND state < 'active'`,
        [THREAD_WORK_QUEUE],
      );
      const next = rows[0]?.next ? new Date(rows[0].next as string) : null;
      work.knownDue = next && next.getTime() > now ? next.getTime() : null;
      return next;
    },
  };
}
