import { envCacheOf } from "@/server/db/cached-env";
import type PgBoss from "pg-boss";
import type { PrismaClient } from "@/server/db/client";
import { CONTROL_CHANNEL, startJobQueue } from "@/server/db/pg-boss/job-queue";
import { pgBossQueueDepth, type PgBossQueueDepth } from "@/server/db/pg-boss/queue-depth";
import { encodeControl, listenForWork, type ControlMessage, type WorkNotifications } from "@/server/db/pg-boss/work-notifications";
import { createPgBossWork, noteDue, pgBossWorkStore } from "@/server/db/pg-boss/work-store";
import { wakesHere } from "@/server/db/pg-boss/wake-target";
import type { PersistenceOptions } from "@/server/db/persistence";
import { sqlLeaseStore } from "@/server/db/pg-boss/sql-leases";
import type { LeaseStore } from "@/server/db/repositories/leases";

export interface PgWork {
  persistence: PersistenceOptions;
  /** Runtime options for a process that shares the queue with others. */
  runtime: { exclusiveWork: false; leaseMs: number; broadcastAbort(threadId: string, reason: ControlMessage["reason"]): void };
  /**
   * After the runtime started (worker processes only): wake its scheduler when another process queues work, and
   * abort a local activation when another process stops or terminates its thread.
   */
  listen(wake: () => void, abort: (m: ControlMessage) => void): Promise<void>;
  /** Jobs waiting and running in the shared queue (health). */
  queueDepth(): Promise<PgBossQueueDepth>;
  /** Leases as single statements on pg-boss's pool (sql-leases.ts): the thread leases, and the worker's heartbeat. */
  leases: LeaseStore;
  close(): Promise<void>;
}

/**
 * Thread work on PostgreSQL: a pg-boss queue shared by every app and worker process. Each process enqueues;
 * processes that run threads (`runWorkers`) also supervise the queue and listen for new work.
 */
export async function startPgWork(opts: {
  databaseUrl: string;
  prisma: PrismaClient;
  runWorkers: boolean;
  leaseSeconds: number;
  log(level: "warn" | "error", message: string, data?: Record<string, unknown>): void;
}): Promise<PgWork> {
  const queue = await startJobQueue(opts.databaseUrl, {
    supervise: opts.runWorkers,
    // An activation's job expires after two lease periods; the heartbeat-renewed lease keeps longer ones exclusive.
    // A dead worker's jobs come back sooner: its heartbeat goes stale within seconds (see dead-workers.ts).
    jobExpirySeconds: opts.leaseSeconds * 2,
    log: opts.log,
  });
  // Thread leases as single statements on pg-boss's pool: each job takes one and releases it (sql-leases.ts).
  const leases = sqlLeaseStore(queue.boss.getDb() as PgBoss.Db);
  const work = createPgBossWork(queue, leases, {
    sweepMs: opts.leaseSeconds * 1000,
    log: (level, message, data) => (level === "info" ? console.log(`[jobs] ${message}`, data ?? "") : opts.log(level, message, data)),
  });
  let notifications: WorkNotifications | null = null;
  return {
    leases,
    persistence: { workStore: (db) => pgBossWorkStore(db, work) },
    runtime: {
      exclusiveWork: false,
      leaseMs: opts.leaseSeconds * 1000,
      broadcastAbort(threadId, reason) {
        const payload = encodeControl({ threadId, reason });
        void queue.boss
          .getDb()
          .executeSql("SELECT pg_notify($1, $2)", [CONTROL_CHANNEL, payload])
          .catch((err: unknown) => opts.log("warn", "could not broadcast an abort; the worker's own checks apply it", { threadId, error: String(err) }));
      },
    },
    async listen(wake, abort) {
      if (!opts.runWorkers) return;
      // Only the worker a job's key names wakes (wake-target.ts); the others find it at their poll if it waits.
      const onWork = (due: number | null, key: string | null) => {
        if (!wakesHere(key, work.live)) return;
        if (due !== null) noteDue(work, due);
        wake();
      };
      notifications = await listenForWork(opts.databaseUrl, onWork, opts.log, abort, envCacheOf(opts.prisma).listener());
    },
    queueDepth: () => pgBossQueueDepth(queue),
    async close() {
      await notifications?.close();
      await queue.stop();
    },
  };
}
