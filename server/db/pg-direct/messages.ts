import { newId, nowMicros } from "@/server/runtime/ids";
import { NotFoundError } from "@/server/runtime/errors";
import { appendedRecord } from "@/server/runtime/kernel/appended-record";
import type { MessageListOptions, MessageRecord, MessageStore, NewMessage, QueueStore } from "@/server/runtime/ports";
import { toNullableJsonText } from "../json";
import { toMessageRecord, toQueued } from "../repositories/messages";
import { sqlDate } from "../sqlite-direct/columns";
import { COLUMNS, toMessage } from "../sqlite-direct/messages";
import { toQueuedRow } from "../sqlite-direct/queue";
import { CHECKED_SEQ } from "./checks";
import type { Row, Runner } from "./connection";
import type { PgHistoryCache } from "./history";

/** The message reads and appends of every step; `update`, `delete` and `count` stay with the Prisma store. */
export function pgMessages(sql: Runner, history: PgHistoryCache, base: MessageStore): MessageStore {
  const lastSeq = async (threadId: string) =>
    Number((await sql.get<{ seq: number | null }>(`SELECT MAX("seq") AS "seq" FROM "Message" WHERE "threadId" = ?`, threadId))?.seq ?? 0);
  return {
    ...base,
    lastSeq,
    async append(threadId, m: NewMessage) {
      // In a transaction the thread is locked first (a statement of its own: the INSERT's seq is then read from a
      // snapshot taken after any other writer of the thread committed); the INSERT goes out right behind it.
      await sql.lockQueued(threadId);
      const ref = (field: string) => ({ model: "Message", field });
      const id = m.id ?? newId();
      const toolCalls = toNullableJsonText(m.toolCalls, ref("toolCalls"));
      const attachments = toNullableJsonText(m.attachments && m.attachments.length > 0 ? m.attachments : null, ref("attachments"));
      const metadata = toNullableJsonText(m.metadata, ref("metadata"));
      const createdAt = m.createdAt ?? nowMicros();
      const json = <T>(text: string | null) => (text === null ? null : (JSON.parse(text) as T));
      const record = (seq: number) =>
        appendedRecord({ ...m, toolCalls: json(toolCalls), attachments: json(attachments), metadata: json(metadata) }, { id, threadId, seq, createdAt });
      const values = [
        m.role,
        m.content,
        m.name ?? null,
        toolCalls,
        m.toolCallId ?? null,
        m.toolStatus ?? null,
        m.reasoningContent ?? null,
        attachments,
        m.silent === true,
        m.depth,
        m.side ?? null,
        metadata,
        m.subagentId ?? null,
        createdAt,
        sqlDate(new Date()),
      ];
      // Optimistic, the thread's lock a check of its known row: the seq is the one after the known last, checked by
      // the INSERT itself (see checks.ts), which goes out without waiting for its answer.
      const next = sql.nextMessageSeq(threadId);
      if (next) {
        const appended = record(next.seq);
        sql.noteAppended(appended);
        await sql.write(`INSERT INTO "Message" (${COLUMNS}) VALUES (?, ?, ${CHECKED_SEQ}, ${VALUES})`, id, threadId, next.after, next.seq, threadId, ...values);
        return appended;
      }
      const row = await sql.get<{ seq: number }>(
        `INSERT INTO "Message" (${COLUMNS})
         VALUES (?, ?, (SELECT COALESCE(MAX("seq"), 0) + 1 FROM "Message" WHERE "threadId" = ?), ${VALUES}) RETURNING "seq"`,
        id,
        threadId,
        threadId,
        ...values,
      );
      const appended = record(Number(row!.seq));
      sql.noteAppended(appended);
      return appended;
    },
    async get(id) {
      const row = await sql.get<Row>(`SELECT * FROM "Message" WHERE "id" = ?`, id);
      return row ? toMessageRecord(toMessage(row)) : null;
    },
    async list(threadId, o: MessageListOptions = {}) {
      // The executor's read of the whole history: only what is new since the last read is mapped (history.ts).
      if (o.includeSilent && Object.keys(o).length === 1) return [...(await history.read(sql, threadId))];
      // Optimistic: the messages after a seq, from the history held in memory, checked instead of read.
      const held = o.includeSilent && o.afterSeq !== undefined && Object.keys(o).length === 2 ? history.held(threadId) : undefined;
      const checked = held && (await sql.checkedHistory(threadId, held));
      if (checked) return checked.filter((r) => r.seq > o.afterSeq!);
      const where = [`"threadId" = ?`];
      const args: unknown[] = [threadId];
      if (!o.includeSilent) where.push(`"silent" = false`);
      if (o.afterSeq !== undefined) {
        where.push(`"seq" > ?`);
        args.push(o.afterSeq);
      }
      if (o.beforeSeq !== undefined) {
        where.push(`"seq" < ?`);
        args.push(o.beforeSeq);
      }
      const limit = o.limit !== undefined ? ` LIMIT ?` : "";
      if (o.limit !== undefined) args.push(o.limit);
      const offset = o.offset ? ` OFFSET ?` : "";
      if (o.offset) args.push(o.offset);
      const rows = await sql.all<Row>(
        `SELECT * FROM "Message" WHERE ${where.join(" AND ")} ORDER BY "seq" ${o.order === "desc" ? "DESC" : "ASC"}${limit}${offset}`,
        ...args,
      );
      return rows.map((r): MessageRecord => toMessageRecord(toMessage(r)));
    },
  };
}

/** The message's columns after id, thread id and seq. */
const VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

/** A post's enqueue, the queue reads of every step and the delivery mark; `rejectPending` stays with the Prisma store. */
export function pgQueue(sql: Runner, base: QueueStore): QueueStore {
  return {
    ...base,
    async enqueue(threadId, input) {
      // In a transaction the thread is locked first (see `pgMessages.append`); the INSERT reads the next seq itself.
      await sql.lockQueued(threadId);
      const ref = (field: string) => ({ model: "QueuedMessage", field });
      const attachments = input.attachments && input.attachments.length > 0 ? input.attachments : null;
      const row = await sql.get<Row>(
        `INSERT INTO "QueuedMessage" ("id", "threadId", "seq", "role", "content", "attachments", "silent", "metadata", "status", "createdAt")
         VALUES (?, ?, (SELECT COALESCE(MAX("seq"), 0) + 1 FROM "QueuedMessage" WHERE "threadId" = ?), ?, ?, ?, ?, ?, 'pending', ?) RETURNING *`,
        newId(),
        threadId,
        threadId,
        input.role,
        input.content,
        toNullableJsonText(attachments, ref("attachments")),
        input.silent === true,
        toNullableJsonText(input.metadata, ref("metadata")),
        sqlDate(new Date()),
      );
      return toQueued(toQueuedRow(row!));
    },
    async pending(threadId) {
      const rows = await sql.all<Row>(`SELECT * FROM "QueuedMessage" WHERE "threadId" = ? AND "status" = 'pending' ORDER BY "seq" ASC`, threadId);
      return rows.map((r) => toQueued(toQueuedRow(r)));
    },
    async markDelivered(id, messageId) {
      const changed = await sql.run(
        `UPDATE "QueuedMessage" SET "status" = 'delivered', "deliveredAt" = ?, "deliveredMessageId" = ? WHERE "id" = ?`,
        sqlDate(new Date()),
        messageId,
        id,
      );
      if (changed === 0) throw new NotFoundError(`Queued message ${id} not found`);
    },
  };
}
