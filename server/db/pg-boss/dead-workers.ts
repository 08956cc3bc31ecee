import os from "node:os";
import type PgBoss from "pg-boss";
import { PG_BOSS_SCHEMA, THREAD_WORK_QUEUE } from "./job-queue";

/** Lease key a worker process renews while it runs (see server/worker/worker-heartbeat.ts). */
export const WORKER_LEASE = "worker:";
const THREAD_LEASE = "thread:";
/** How often a worker renews its heartbeat, and how long one renewal lasts (about three missed beats). */
export const HEARTBEAT_EVERY_MS = 2000;
export const HEARTBEAT_TTL_MS = 3 * HEARTBEAT_EVERY_MS;
/**
 * A process gone from this machine counts as dead once its heartbeat also missed a beat: a worker of another pid
 * namespace with the same host name (containers) is never taken for a dead one while it beats.
 */
const GONE_AND_SILENT_MS = Math.round(HEARTBEAT_EVERY_MS * 1.5);
/** A dead worker's heartbeat row is deleted this long after it went stale (health lists recent ones). */
const FORGET_AFTER_MS = 60 * 60_000;

export interface DeadWorkerSweep {
  /** Owners found dead, thread leases taken back and jobs handed out again in this sweep. */
  owners: string[];
  threads: string[];
  jobs: number;
  /** Threads taken back that had no active job (it ended, or the worker died between its job and the lease). */
  withoutJob: string[];
  /** Owners of the heartbeats found live (this worker's included once it beats), sorted: whom work notifications wake. */
  live: string[];
}

/** Whether `owner` (`<host>:<pid>`, a worker id) is a process of this machine that no longer exists. */
export function deadOnThisHost(owner: string, host = os.hostname()): boolean {
  const at = owner.lastIndexOf(":");
  if (at <= 0 || owner.slice(0, at) !== host) return false;
  const pid = Number(owner.slice(at + 1));
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Failover in seconds: every worker renews its heartbeat lease (`worker:<id>`) every 2 s with a 6 s expiry. A
 * worker whose heartbeat expired, or whose process is gone from this machine and missed a beat (a restarted process
 * reclaims its own work as soon as it is up), is dead: the thread leases it held are deleted and its active jobs for those threads are failed and
 * made due at once, so any worker claims them right away instead of after pg-boss's job expiry. A thread lease whose
 * owner never had a heartbeat row is left to that expiry. Leases whose owner beats are never touched.
 *
 * Runs on pg-boss's own pool, outside any caller's transaction; safe to run from many workers at once (the
 * conditional deletes and pg-boss's state checks make a second sweeper find nothing left).
 */
export async function sweepDeadWorkers(boss: PgBoss, self: string, now = new Date()): Promise<DeadWorkerSweep> {
  const db = boss.getDb() as PgBoss.Db;
  const beats = (await db.executeSql(`SELECT "owner", "expiresAt" FROM "Lease" WHERE "key" LIKE $1`, [`${WORKER_LEASE}%`])).rows as {
    owner: string;
    expiresAt: Date;
  }[];
  const silentSince = (b: { expiresAt: Date }) => now.getTime() - (new Date(b.expiresAt).getTime() - HEARTBEAT_TTL_MS);
  const dead = beats.filter(
    (b) => b.owner !== self && (new Date(b.expiresAt).getTime() < now.getTime() || (silentSince(b) > GONE_AND_SILENT_MS && deadOnThisHost(b.owner))),
  );
  const live = beats
    .filter((b) => !dead.includes(b) && new Date(b.expiresAt).getTime() >= now.getTime())
    .map((b) => b.owner)
    .sort();
  if (dead.length === 0) return { owners: [], threads: [], jobs: 0, withoutJob: [], live };
  const owners = dead.map((b) => b.owner);
  // Take the dead workers' thread leases back (only while they still hold them).
  const released = (
    await db.executeSql(`DELETE FROM "Lease" WHERE "owner" = ANY($1::text[]) AND "key" LIKE $2 RETURNING "key"`, [owners, `${THREAD_LEASE}%`])
  ).rows as { key: string }[];
  const threads = released.map((r) => r.key.slice(THREAD_LEASE.length));
  let jobs = 0;
  let withoutJob = threads;
  if (threads.length > 0) {
    // Their jobs are still `active` (nobody completes them): fail them for a retry that is due now.
    const active = (
      await db.executeSql(`SELECT id, data->>'threadId' AS thread FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND state = 'active' AND data->>'threadId' = ANY($2::text[])`, [
        THREAD_WORK_QUEUE,
        threads,
      ])
    ).rows as { id: string; thread: string }[];
    withoutJob = threads.filter((t) => !active.some((r) => r.thread === t));
    const ids = active.map((r) => String(r.id));
    if (ids.length > 0) {
      for (const id of ids) await boss.fail(THREAD_WORK_QUEUE, id, { message: "the worker running this job died" });
      await db.executeSql(`UPDATE ${PG_BOSS_SCHEMA}.job SET start_after = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'retry'`, [
        THREAD_WORK_QUEUE,
        ids,
      ]);
    }
    jobs = ids.length;
  }
  // Forget heartbeat rows long dead with nothing left to take back.
  const stale = new Date(now.getTime() - FORGET_AFTER_MS);
  await db.executeSql(`DELETE FROM "Lease" WHERE "key" LIKE $1 AND "expiresAt" < $2`, [`${WORKER_LEASE}%`, stale]);
  return { owners, threads, jobs, withoutJob, live };
}
