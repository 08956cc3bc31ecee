import type { LeaseStore } from "@/server/db/repositories/leases";
import { HEARTBEAT_EVERY_MS, HEARTBEAT_TTL_MS, WORKER_LEASE } from "@/server/db/pg-boss/dead-workers";

/** Lease key a worker process renews while it runs, so health reports idle workers too. */
export const workerLeaseKey = (workerId: string) => `${WORKER_LEASE}${workerId}`;

/**
 * A process that runs workers holds the lease `worker:<host:pid>` and renews it every `everyMs` (2 s); it lapses
 * `ttlMs` (6 s) after the process dies, and other workers then take its threads over (server/db/pg-boss/dead-workers.ts).
 * `/api/health` lists the owners of recent leases as the workers seen. Resolves after the first beat, so the
 * worker's thread leases always have a heartbeat to be judged by. `leases`: on PostgreSQL the single-statement store
 * of the thread leases (pg-boss/sql-leases.ts: one upsert a beat), elsewhere the Prisma one.
 */
export async function startWorkerHeartbeat(
  leases: LeaseStore,
  workerId: string,
  opts: { everyMs?: number; ttlMs?: number } = {},
): Promise<{ stop(): Promise<void> }> {
  const everyMs = opts.everyMs ?? HEARTBEAT_EVERY_MS;
  const ttlMs = opts.ttlMs ?? (opts.everyMs ? everyMs * 3 : HEARTBEAT_TTL_MS);
  const beat = () => leases.acquire(workerLeaseKey(workerId), workerId, ttlMs).catch(() => false);
  let last = beat();
  await last;
  const timer = setInterval(() => {
    last = beat();
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await last;
      await leases.release(workerLeaseKey(workerId), workerId).catch(() => {});
    },
  };
}
