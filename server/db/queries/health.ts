import type { PrismaClient } from "../client";

/** Work waiting and in progress in the built-in work-item table (a type, so it fits the health report's open record). */
export type WorkItemDepth = {
  source: "work-items";
  /** Waiting work (due now or later). */
  pending: number;
  due: number;
  /** Work claimed by a worker and not finished. */
  claimed: number;
};

/** A worker that claimed work or renewed a lease recently. */
export interface WorkerSeenRow {
  id: string;
  lastSeenAt: string;
  /** Work it holds now. */
  claimed: number;
}

/** The health report's database reads: reachability, the built-in queue's depth and the workers seen lately. */
export function healthQueries(prisma: PrismaClient) {
  return {
    /** One trivial statement: throws when the database is unreachable. */
    async ping(): Promise<void> {
      await prisma.$queryRawUnsafe("SELECT 1");
    },
    async workItemDepth(): Promise<WorkItemDepth> {
      const now = new Date();
      const [pending, due, claimed] = await Promise.all([
        prisma.workItem.count({ where: { status: "pending" } }),
        prisma.workItem.count({ where: { status: "pending", runAt: { lte: now } } }),
        prisma.workItem.count({ where: { status: "claimed" } }),
      ]);
      return { source: "work-items", pending, due, claimed };
    },
    /**
     * Owners of leases taken or renewed since `since` (every process with workers renews its `worker:<id>` lease;
     * thread leases on PostgreSQL) and owners of claimed work items (SQLite's queue), by id.
     */
    async workersSeen(since: Date): Promise<WorkerSeenRow[]> {
      const [items, leases] = await Promise.all([
        prisma.workItem.groupBy({
          by: ["leaseOwner"],
          where: { status: "claimed", leaseOwner: { not: null }, updatedAt: { gte: since } },
          _count: { _all: true },
          _max: { updatedAt: true },
        }),
        prisma.lease.findMany({ where: { updatedAt: { gte: since } }, select: { key: true, owner: true, updatedAt: true } }),
      ]);
      const seen = new Map<string, { last: Date; claimed: number }>();
      const note = (id: string, at: Date, claimed: number) => {
        const s = seen.get(id) ?? { last: at, claimed: 0 };
        if (at > s.last) s.last = at;
        s.claimed += claimed;
        seen.set(id, s);
      };
      for (const r of items) if (r.leaseOwner) note(r.leaseOwner, r._max.updatedAt ?? since, r._count._all);
      for (const l of leases) note(l.owner, l.updatedAt, l.key.startsWith("thread:") ? 1 : 0);
      return [...seen]
        .map(([id, s]) => ({ id, lastSeenAt: s.last.toISOString(), claimed: s.claimed }))
        .sort((a, b) => a.id.localeCompare(b.id));
    },
  };
}
