import type { Db } from "@/server/db/client";
import { leaseStore } from "@/server/db/repositories/leases";

/** Lease key a worker process renews while it runs, so health reports idle workers too. */
export const workerLeaseKey = (workerId: string) => `worker:${workerId}`;

/**
 * A process that runs workers holds the lease `worker:<host:pid>` and renews it every `everyMs`; it lapses
 * `ttlMs` after the process dies. `/api/health` lists the owners of recent leases as the workers seen.
 */
export function startWorkerHeartbeat(db: Db, workerId: string, opts: { everyMs?: number; ttlMs?: number } = {}): { stop(): Promise<void> } {
  const leases = leaseStore(db);
  const everyMs = opts.everyMs ?? 15_000;
  const ttlMs = opts.ttlMs ?? everyMs * 3;
  const beat = () => leases.acquire(workerLeaseKey(workerId), workerId, ttlMs).catch(() => false);
  let last = beat();
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
