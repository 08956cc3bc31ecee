import { newId } from "@/server/runtime/ids";
import type { WorkItemRecord, WorkStore } from "@/server/runtime/ports";
import { parseJsonColumn, toJsonText } from "../json";
import { objectSchema } from "../repositories/row-schemas";
import { readDate, readJson, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";

type Row = Record<string, unknown>;

/**
 * The work items of every turn: a post enqueues one, the scheduler claims it, runs the activation and deletes it.
 * Through Prisma these were about ten statements of 0.3–0.5 ms each per turn; here each is a prepared statement.
 * `fail`, `extendLeases`, `releaseExpired` and `cancelEffect` (rare) stay with the Prisma store.
 */
export function directWork(sql: DirectSqlite, base: WorkStore, inTransaction: boolean): WorkStore {
  return {
    ...base,
    /** At most one pending item per dedupe key (called for every schedule, and inside transactions). */
    async enqueue(item) {
      const now = sqlDate(new Date());
      sql.run(
        `INSERT INTO "WorkItem" ("id", "threadId", "kind", "payload", "status", "runAt", "attempts", "dedupeKey", "createdAt", "updatedAt")
         VALUES (?, ?, ?, ?, 'pending', ?, 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
        newId(),
        item.threadId ?? null,
        item.kind,
        toJsonText(item.payload ?? {}, { model: "WorkItem", field: "payload" }),
        item.runAt ? sqlDate(item.runAt) : now,
        item.dedupeKey ?? null,
        now,
        now,
      );
    },
    /**
     * Due items, oldest first, never two of one thread and never one of a thread already claimed. In a transaction of
     * its own (or the caller's), so the read and the updates see one state of the table.
     */
    async claim(owner, limit, leaseMs) {
      const body = () => claimDue(sql, owner, limit, leaseMs);
      return inTransaction ? body() : sql.transaction(async () => body());
    },
    async complete(id) {
      sql.run(`DELETE FROM "WorkItem" WHERE "id" = ?`, id);
    },
    async nextRunAt() {
      const row = sql.get<{ runAt: unknown }>(
        `SELECT "runAt" FROM "WorkItem" WHERE "status" = 'pending' ORDER BY "runAt" ASC, "id" ASC LIMIT 1`,
      );
      return row ? readDate(row.runAt) : null;
    },
  };
}

function claimDue(sql: DirectSqlite, owner: string, limit: number, leaseMs: number): WorkItemRecord[] {
  const now = new Date();
  const busy = new Set(
    sql
      .all<{ threadId: string }>(`SELECT "threadId" FROM "WorkItem" WHERE "status" = 'claimed' AND "threadId" IS NOT NULL`)
      .map((r) => r.threadId),
  );
  const due = sql.all<{ id: string; threadId: string | null }>(
    `SELECT "id", "threadId" FROM "WorkItem" WHERE "status" = 'pending' AND "runAt" <= ? ORDER BY "runAt" ASC, "id" ASC LIMIT ?`,
    sqlDate(now),
    limit * 4 + 16,
  );
  const stamp = sqlDate(now);
  const lease = sqlDate(new Date(now.getTime() + leaseMs));
  const out: WorkItemRecord[] = [];
  for (const item of due) {
    if (out.length >= limit) break;
    if (item.threadId) {
      if (busy.has(item.threadId)) continue;
      busy.add(item.threadId);
    }
    const r = sql.get<Row>(
      `UPDATE "WorkItem" SET "status" = 'claimed', "leaseOwner" = ?, "leaseExpiresAt" = ?, "attempts" = "attempts" + 1, "dedupeKey" = NULL, "updatedAt" = ?
       WHERE "id" = ? RETURNING "id", "threadId", "kind", "payload", "runAt", "attempts"`,
      owner,
      lease,
      stamp,
      item.id,
    );
    if (!r) continue;
    const id = r.id as string;
    out.push({
      id,
      threadId: (r.threadId as string | null) ?? null,
      kind: r.kind as string,
      payload: parseJsonColumn(objectSchema, readJson(r.payload), { model: "WorkItem", field: "payload", id }),
      runAt: readDate(r.runAt),
      attempts: r.attempts as number,
    });
  }
  return out;
}
