import { newId } from "@/server/runtime/ids";
import { NotFoundError } from "@/server/runtime/errors";
import type { QueueStore } from "@/server/runtime/ports";
import type { QueuedMessage } from "../generated/prisma/client";
import { toNullableJsonText } from "../json";
import { toQueued } from "../repositories/messages";
import { bool, readDate, readOptionalDate, readOptionalJson, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";
import { guarded } from "./errors";

type Row = Record<string, unknown>;

export function toQueuedRow(r: Row): QueuedMessage {
  return {
    ...(r as unknown as QueuedMessage),
    attachments: readOptionalJson(r.attachments) as QueuedMessage["attachments"],
    metadata: readOptionalJson(r.metadata) as QueuedMessage["metadata"],
    silent: bool(r.silent),
    createdAt: readDate(r.createdAt),
    deliveredAt: readOptionalDate(r.deliveredAt),
  };
}

/**
 * The queue of every turn: a post enqueues, the activation reads what is pending before each step and marks what it
 * delivers; `rejectPending` when a child ends or a thread is terminated. Called inside the runtime's transactions, where
 * SQLite already serialises writers, so the next seq is read and used in one go.
 */
export function directQueue(sql: DirectSqlite, base: QueueStore): QueueStore {
  return {
    ...base,
    async enqueue(threadId, input) {
      const stamp = sql.stamp();
      const seq =
        (sql.get<{ seq: number | null }>(`SELECT MAX("seq") AS "seq" FROM "QueuedMessage" WHERE "threadId" = ?`, threadId)?.seq ?? 0) + 1;
      const attachments = input.attachments && input.attachments.length > 0 ? input.attachments : null;
      const row = guarded(() =>
        sql.get<Row>(
          `INSERT INTO "QueuedMessage" ("id", "threadId", "seq", "role", "content", "attachments", "silent", "metadata", "status", "createdAt")
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?) RETURNING *`,
          newId(),
          threadId,
          seq,
          input.role,
          input.content,
          toNullableJsonText(attachments, { model: "QueuedMessage", field: "attachments" }),
          input.silent ? 1 : 0,
          toNullableJsonText(input.metadata, { model: "QueuedMessage", field: "metadata" }),
          sqlDate(new Date()),
        ),
      );
      sql.queues.patch(threadId, stamp, (rows) => [...rows, row!]);
      return toQueued(toQueuedRow(row!));
    },
    async pending(threadId) {
      // Read before every step: the pending rows are held while the stamp stays (enqueue and delivery keep them).
      const stamp = sql.stamp();
      const rows =
        sql.queues.get(threadId, stamp) ??
        sql.queues.set(threadId, sql.all<Row>(`SELECT * FROM "QueuedMessage" WHERE "threadId" = ? AND "status" = 'pending' ORDER BY "seq" ASC`, threadId), stamp);
      return rows.map((r) => toQueued(toQueuedRow(r)));
    },
    async markDelivered(id, messageId) {
      const stamp = sql.stamp();
      const changed = sql.run(
        `UPDATE "QueuedMessage" SET "status" = 'delivered', "deliveredAt" = ?, "deliveredMessageId" = ? WHERE "id" = ?`,
        sqlDate(new Date()),
        messageId,
        id,
      );
      for (const key of sql.queues.keysWhere((rows) => rows.some((r) => r.id === id))) {
        sql.queues.patch(key, stamp, (rows) => rows.filter((r) => r.id !== id));
      }
      if (changed === 0) throw new NotFoundError(`Queued message ${id} not found`);
    },
    async rejectPending(threadId) {
      const changed = sql.run(`UPDATE "QueuedMessage" SET "status" = 'rejected' WHERE "threadId" = ? AND "status" = 'pending'`, threadId);
      sql.queues.delete(threadId);
      return changed;
    },
  };
}
