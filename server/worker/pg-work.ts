import type { PrismaClient } from "@/server/db/client";
import { startJobQueue } from "@/server/db/pg-boss/job-queue";
import { pgBossQueueDepth, type PgBossQueueDepth } from "@/server/db/pg-boss/queue-depth";
import { listenForWork, type WorkNotifications } from "@/server/db/pg-boss/work-notifications";
import { createPgBossWork, pgBossWorkStore } from "@/server/db/pg-boss/work-store";
import type { PersistenceOptions } from "@/server/db/persistence";
import { leaseStore } from "@/server/db/repositories/leases";

export interface PgWork {
  persistence: PersistenceOptions;
  /** Runtime options for a process that shares the queue with others. */
  runtime: { exclusiveWork: false; leaseMs: number };
  /** After the runtime started: wake its scheduler when another process queues work (worker processes only). */
  listen(wake: () => void): Promise<void>;
  /** Jobs waiting and running in the shared queue (health). */
  queueDepth(): Promise<PgBossQueueDepth>;
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
    jobExpirySeconds: opts.leaseSeconds * 2,
    log: opts.log,
  });
  const work = createPgBossWork(queue, leaseStore(opts.prisma), { sweepMs: opts.leaseSeconds * 1000 });
  let notifications: WorkNotifications | null = null;
  return {
    persistence: { workStore: (db) => pgBossWorkStore(db, work) },
    runtime: { exclusiveWork: false, leaseMs: opts.leaseSeconds * 1000 },
    async listen(wake) {
      if (opts.runWorkers) notifications = await listenForWork(opts.databaseUrl, wake, opts.log);
    },
    queueDepth: () => pgBossQueueDepth(queue),
    async close() {
      await notifications?.close();
      await queue.stop();
    },
  };
}
