import type { WorkItemRecord, WorkStore } from "@/server/runtime/ports";
import type { Db, PrismaClient } from "../client";
import type { DatabaseKind } from "../database-url";
import { workClaimLock } from "../row-lock";
import { parseJsonColumn, toJsonColumn } from "../json";
import { objectSchema } from "./row-schemas";

/**
 * Durable work items claimed with a lease. At most one item per thread is claimed at a time; `dedupeKey` keeps one
 * pending item per key (it is cleared when the item is claimed, so new work can queue behind a running one).
 */
export function workStore(db: Db, root: PrismaClient | null, kind: DatabaseKind = "sqlite"): WorkStore {
  const inTx = <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    root ? root.$transaction((tx) => fn(tx), { maxWait: 30_000, timeout: 30_000 }) : fn(db);
  return {
    async enqueue(item) {
      const data = {
        threadId: item.threadId ?? null,
        kind: item.kind,
        payload: toJsonColumn(item.payload ?? {}, { model: "WorkItem", field: "payload" }),
        runAt: item.runAt ?? new Date(),
      };
      if (item.dedupeKey) await db.workItem.upsert({ where: { dedupeKey: item.dedupeKey }, create: { ...data, dedupeKey: item.dedupeKey }, update: {} });
      else await db.workItem.create({ data });
    },
    async claim(owner, limit, leaseMs) {
      return inTx(async (tx) => {
        await workClaimLock(tx, kind)();
        const now = new Date();
        const busy = new Set(
          (await tx.workItem.findMany({ where: { status: "claimed", threadId: { not: null } }, select: { threadId: true } })).map((r) => r.threadId),
        );
        const due = await tx.workItem.findMany({ where: { status: "pending", runAt: { lte: now } }, orderBy: [{ runAt: "asc" }, { id: "asc" }], take: limit * 4 + 16 });
        const out: WorkItemRecord[] = [];
        for (const row of due) {
          if (out.length >= limit) break;
          if (row.threadId && busy.has(row.threadId)) continue;
          if (row.threadId) busy.add(row.threadId);
          const claimed = await tx.workItem.update({
            where: { id: row.id },
            data: { status: "claimed", leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs), attempts: { increment: 1 }, dedupeKey: null },
          });
          out.push({
            id: claimed.id,
            threadId: claimed.threadId,
            kind: claimed.kind,
            payload: parseJsonColumn(objectSchema, claimed.payload, { model: "WorkItem", field: "payload", id: claimed.id }),
            runAt: claimed.runAt,
            attempts: claimed.attempts,
          });
        }
        return out;
      });
    },
    async cancelEffect(effectId) {
      await db.workItem.deleteMany({ where: { dedupeKey: `effect:${effectId}`, status: "pending" } });
    },
    async complete(id) {
      await db.workItem.deleteMany({ where: { id } });
    },
    async fail(id, error, retryAt) {
      await db.workItem.updateMany({
        where: { id },
        data: retryAt
          ? { status: "pending", runAt: retryAt, leaseOwner: null, leaseExpiresAt: null, lastError: error }
          : { status: "failed", leaseOwner: null, leaseExpiresAt: null, lastError: error },
      });
    },
    async extendLeases(owner, leaseMs) {
      await db.workItem.updateMany({ where: { leaseOwner: owner, status: "claimed" }, data: { leaseExpiresAt: new Date(Date.now() + leaseMs) } });
    },
    async releaseExpired(o = {}) {
      const where = o.all ? { status: "claimed" } : { status: "claimed", leaseExpiresAt: { lt: new Date() } };
      return (await db.workItem.updateMany({ where, data: { status: "pending", leaseOwner: null, leaseExpiresAt: null } })).count;
    },
    async nextRunAt() {
      const row = await db.workItem.findFirst({ where: { status: "pending" }, orderBy: [{ runAt: "asc" }, { id: "asc" }], select: { runAt: true } });
      return row?.runAt ?? null;
    },
  };
}
