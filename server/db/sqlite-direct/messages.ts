import { randomUUID } from "node:crypto";
import { nowMicros } from "@/server/runtime/ids";
import type { MessageListOptions, MessageRecord, MessageStore, NewMessage, QueueStore } from "@/server/runtime/ports";
import type { Message, QueuedMessage } from "../generated/prisma/client";
import { toNullableJsonText } from "../json";
import { toMessageRecord } from "../repositories/messages";
import { toQueued } from "../repositories/messages";
import { bool, readDate, readOptionalDate, readOptionalJson, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";
import { guarded } from "./errors";

type Row = Record<string, unknown>;

function toMessage(r: Row): Message {
  return {
    ...(r as unknown as Message),
    toolCalls: readOptionalJson(r.toolCalls) as Message["toolCalls"],
    attachments: readOptionalJson(r.attachments) as Message["attachments"],
    metadata: readOptionalJson(r.metadata) as Message["metadata"],
    silent: bool(r.silent),
    createdAt: BigInt(r.createdAt as number),
    updatedAt: readDate(r.updatedAt),
  };
}

function toQueuedRow(r: Row): QueuedMessage {
  return {
    ...(r as unknown as QueuedMessage),
    attachments: readOptionalJson(r.attachments) as QueuedMessage["attachments"],
    metadata: readOptionalJson(r.metadata) as QueuedMessage["metadata"],
    silent: bool(r.silent),
    createdAt: readDate(r.createdAt),
    deliveredAt: readOptionalDate(r.deliveredAt),
  };
}

const COLUMNS = `"id", "threadId", "seq", "role", "content", "name", "toolCalls", "toolCallId", "toolStatus", "reasoningContent", "attachments", "silent", "depth", "side", "metadata", "subagentId", "createdAt", "updatedAt"`;

/** The message reads and appends of every step; `update`, `delete` and `count` stay with the Prisma store. */
export function directMessages(sql: DirectSqlite, base: MessageStore): MessageStore {
  const lastSeq = (threadId: string) =>
    sql.get<{ seq: number | null }>(`SELECT MAX("seq") AS "seq" FROM "Message" WHERE "threadId" = ?`, threadId)?.seq ??
    0;
  return {
    ...base,
    async lastSeq(threadId) {
      return lastSeq(threadId);
    },
    async append(threadId, m: NewMessage) {
      const ref = (field: string) => ({ model: "Message", field });
      const row = guarded(() =>
        sql.get<Row>(
          `INSERT INTO "Message" (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          m.id ?? randomUUID(),
          threadId,
          lastSeq(threadId) + 1,
          m.role,
          m.content,
          m.name,
          toNullableJsonText(m.toolCalls, ref("toolCalls")),
          m.toolCallId,
          m.toolStatus,
          m.reasoningContent,
          toNullableJsonText(m.attachments && m.attachments.length > 0 ? m.attachments : null, ref("attachments")),
          m.silent ? 1 : 0,
          m.depth,
          m.side,
          toNullableJsonText(m.metadata, ref("metadata")),
          m.subagentId,
          m.createdAt ?? nowMicros(),
          sqlDate(new Date()),
        ),
      );
      return toMessageRecord(toMessage(row!));
    },
    async get(id) {
      const row = sql.get<Row>(`SELECT * FROM "Message" WHERE "id" = ?`, id);
      return row ? toMessageRecord(toMessage(row)) : null;
    },
    async list(threadId, o: MessageListOptions = {}) {
      // The executor's read of the whole history: through the cache.
      if (o.includeSilent && Object.keys(o).length === 1) return [...history(threadId)];
      return select(threadId, o);
    },
    async update(id, patch) {
      const r = await base.update(id, patch);
      sql.history.forget(r.threadId);
      return r;
    },
    async delete(id) {
      const row = sql.get<{ threadId: string }>(`SELECT "threadId" FROM "Message" WHERE "id" = ?`, id);
      if (row) sql.history.forget(row.threadId);
      return base.delete(id);
    },
  };

  function select(threadId: string, o: MessageListOptions): MessageRecord[] {
    const where = [`"threadId" = ?`];
    const args: unknown[] = [threadId];
    if (!o.includeSilent) where.push(`"silent" = 0`);
    if (o.afterSeq !== undefined) {
      where.push(`"seq" > ?`);
      args.push(o.afterSeq);
    }
    if (o.beforeSeq !== undefined) {
      where.push(`"seq" < ?`);
      args.push(o.beforeSeq);
    }
    const limit = o.limit !== undefined ? ` LIMIT ?` : o.offset ? ` LIMIT -1` : "";
    if (o.limit !== undefined) args.push(o.limit);
    const offset = o.offset ? ` OFFSET ?` : "";
    if (o.offset) args.push(o.offset);
    const rows = sql.all<Row>(
      `SELECT * FROM "Message" WHERE ${where.join(" AND ")} ORDER BY "seq" ${o.order === "desc" ? "DESC" : "ASC"}${limit}${offset}`,
      ...args,
    );
    return rows.map((r) => toMessageRecord(toMessage(r)));
  }

  /** Every message of the thread, silent ones included, in seq order (see history-cache.ts). */
  function history(threadId: string): readonly MessageRecord[] {
    const held = sql.history.get(threadId);
    const last = held?.at(-1);
    if (held && last) {
      const check = sql.get<{ n: number; lastId: string | null }>(
        `SELECT COUNT(*) AS "n", (SELECT "id" FROM "Message" WHERE "threadId" = ? AND "seq" = ?) AS "lastId" FROM "Message" WHERE "threadId" = ? AND "seq" <= ?`,
        threadId,
        last.seq,
        threadId,
        last.seq,
      );
      if (check && check.n === held.length && check.lastId === last.id) {
        const newer = select(threadId, { includeSilent: true, afterSeq: last.seq });
        return newer.length === 0 ? held : sql.history.set(threadId, [...held, ...newer]);
      }
    }
    return sql.history.set(threadId, select(threadId, { includeSilent: true }));
  }
}

/** `pending`, read before every step; the rest of the queue stays with the Prisma store. */
export function directQueue(sql: DirectSqlite, base: QueueStore): QueueStore {
  return {
    ...base,
    async pending(threadId) {
      const rows = sql.all<Row>(
        `SELECT * FROM "QueuedMessage" WHERE "threadId" = ? AND "status" = 'pending' ORDER BY "seq" ASC`,
        threadId,
      );
      return rows.map((r) => toQueued(toQueuedRow(r)));
    },
  };
}
