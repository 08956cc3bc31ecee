import type { Db } from "../client";

/** Named leases (`thread:<id>`): one owner at a time until the lease expires or its owner releases it. */
export interface LeaseStore {
  /** Take the lease for `owner` (also when `owner` already holds it, or the holder let it expire); false if held. */
  acquire(key: string, owner: string, ms: number): Promise<boolean>;
  /** Push back the expiry of every lease `owner` holds whose key starts with `prefix` (its heartbeat). */
  extend(owner: string, ms: number, prefix?: string): Promise<number>;
  release(key: string, owner: string): Promise<void>;
  holder(key: string): Promise<{ owner: string; expiresAt: Date } | null>;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}

export function leaseStore(db: Db): LeaseStore {
  return {
    async acquire(key, owner, ms) {
      const now = new Date();
      const expiresAt = new Date(now.getTime() + ms);
      // An expired or own lease is taken over in one conditional update (row-locked: two takers never both win).
      const taken = await db.lease.updateMany({ where: { key, OR: [{ owner }, { expiresAt: { lt: now } }] }, data: { owner, expiresAt } });
      if (taken.count > 0) return true;
      try {
        await db.lease.create({ data: { key, owner, expiresAt } });
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    async extend(owner, ms, prefix = "") {
      const where = prefix ? { owner, key: { startsWith: prefix } } : { owner };
      return (await db.lease.updateMany({ where, data: { expiresAt: new Date(Date.now() + ms) } })).count;
    },
    async release(key, owner) {
      await db.lease.deleteMany({ where: { key, owner } });
    },
    async holder(key) {
      return db.lease.findUnique({ where: { key }, select: { owner: true, expiresAt: true } });
    },
  };
}
