import { newId, nowMicros } from "@/server/runtime/ids";
import { appendedRecord } from "@/server/runtime/kernel/appended-record";
import type { MessageListOptions, MessageRecord, MessageStore, NewMessage } from "@/server/runtime/ports";
import type { Message } from "../generated/prisma/client";
import { toNullableJsonText } from "../json";
import { toMessageRecord } from "../repositories/messages";
import { bool, readDate, readOptionalJson, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";
import { guarded } from "./errors";

type Row = Record<string, unknown>;

export function toMessage(r: Row): Message {
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

export const COLUMNS = `"id", "threadId", "seq", "role", "content", "name", "toolCalls", "toolCallId", "toolStatus", "reasoningContent", "attachments", "silent", "depth", "side", "metadata", "subagentId", "createdAt", "updatedAt"`;

/** The message reads and appends of every step; `update`, `delete` and `count` stay with the Prisma store. */
export function directMessages(sql: DirectSqlite, base: MessageStore): MessageStore {
  // The last seq is the cached history's while that is current (one check of the stamp instead of a MAX query).
  const lastSeq = (threadId: string, stamp: number) => {
    const held = sql.history.get(threadId);
    if (held && held.stamp === stamp) return held.rows.at(-1)?.seq ?? 0;
    return sql.get<{ seq: number | null }>(`SELECT MAX("seq") AS "seq" FROM "Message" WHERE "threadId" = ?`, threadId)?.seq ?? 0;
  };
  return {
    ...base,
    async lastSeq(threadId) {
      return lastSeq(threadId, sql.stamp());
    },
    async append(threadId, m: NewMessage) {
      const ref = (field: string) => ({ model: "Message", field });
      const id = m.id ?? newId();
      const stamp = sql.stamp();
      const seq = lastSeq(threadId, stamp) + 1;
      const toolCalls = toNullableJsonText(m.toolCalls, ref("toolCalls"));
      const attachments = toNullableJsonText(m.attachments && m.attachments.length > 0 ? m.attachments : null, ref("attachments"));
      const metadata = toNullableJsonText(m.metadata, ref("metadata"));
      const createdAt = m.createdAt ?? nowMicros();
      guarded(() =>
        sql.run(
          `INSERT INTO "Message" (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id,
          threadId,
          seq,
          m.role,
          m.content,
          m.name ?? null,
          toolCalls,
          m.toolCallId ?? null,
          m.toolStatus ?? null,
          m.reasoningContent ?? null,
          attachments,
          m.silent ? 1 : 0,
          m.depth,
          m.side ?? null,
          metadata,
          m.subagentId ?? null,
          createdAt,
          sqlDate(new Date()),
        ),
      );
      // The record of the row just written, from the values bound: the JSON columns read back from their own text
      // (what a read returns), without a RETURNING row to map and check. The history cache gets its own copy.
      const json = <T>(text: string | null) => (text === null ? null : (JSON.parse(text) as T));
      const record = (): MessageRecord =>
        appendedRecord(
          { ...m, toolCalls: json(toolCalls), attachments: json(attachments), metadata: json(metadata) },
          { id, threadId, seq, createdAt },
        );
      sql.history.appended(record(), stamp);
      return record();
    },
    async get(id) {
      const row = sql.get<Row>(`SELECT * FROM "Message" WHERE "id" = ?`, id);
      return row ? toMessageRecord(toMessage(row)) : null;
    },
    async list(threadId, o: MessageListOptions = {}) {
      // The executor's read of the whole history: through the cache.
      if (o.includeSilent && Object.keys(o).length === 1) return [...history(threadId)];
      // The rows after a seq (a tool result's check for one stored meanwhile): from the history while it is current.
      if (o.includeSilent && o.afterSeq !== undefined && Object.keys(o).length === 2) {
        const held = sql.history.get(threadId);
        const after = o.afterSeq;
        if (held && held.stamp === sql.stamp()) return held.rows.filter((r) => r.seq > after);
      }
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
    // The stamp first: a row written after it moves it, so what is read below is never held as newer than it is.
    const stamp = sql.stamp();
    const held = sql.history.get(threadId);
    if (held && held.stamp === stamp) return held.rows;
    const external = sql.external;
    const last = held?.rows.at(-1);
    if (held && last && held.external === external) {
      const check = sql.get<{ n: number; lastId: string | null }>(
        `SELECT COUNT(*) AS "n", (SELECT "id" FROM "Message" WHERE "threadId" = ? AND "seq" = ?) AS "lastId" FROM "Message" WHERE "threadId" = ? AND "seq" <= ?`,
        threadId,
        last.seq,
        threadId,
        last.seq,
      );
      if (check && check.n === held.rows.length && check.lastId === last.id) {
        const newer = select(threadId, { includeSilent: true, afterSeq: last.seq });
        return sql.history.set(threadId, [...held.rows, ...newer], stamp, external);
      }
    }
    return sql.history.set(threadId, select(threadId, { includeSilent: true }), stamp, external);
  }
}
