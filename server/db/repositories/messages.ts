import { newId, nowMicros } from "@/server/runtime/ids";
import { appendedRecord } from "@/server/runtime/kernel/appended-record";
import type { MessageRecord, MessageRole, MessageStore, NewMessage, QueueStore, QueuedMessageRecord, Side } from "@/server/runtime/ports";
import type { Db } from "../client";
import type { Message, QueuedMessage } from "../generated/prisma/client";
import { parseOptionalJsonColumn, toNullableJsonColumn, toNullableJsonText } from "../json";
import type { ThreadLock } from "../row-lock";
import { attachmentsSchema, objectSchema, toolCallsSchema } from "./row-schemas";

export function toMessageRecord(row: Message): MessageRecord {
  const ref = (field: string) => ({ model: "Message", field, id: row.id });
  return {
    id: row.id,
    threadId: row.threadId,
    seq: row.seq,
    role: row.role as MessageRole,
    content: row.content,
    name: row.name,
    toolCalls: parseOptionalJsonColumn(toolCallsSchema, row.toolCalls, ref("toolCalls")),
    toolCallId: row.toolCallId,
    toolStatus: row.toolStatus as MessageRecord["toolStatus"],
    reasoningContent: row.reasoningContent,
    attachments: parseOptionalJsonColumn(attachmentsSchema, row.attachments, ref("attachments")),
    silent: row.silent,
    depth: row.depth,
    side: row.side as Side | null,
    metadata: parseOptionalJsonColumn(objectSchema, row.metadata, ref("metadata")),
    subagentId: row.subagentId,
    createdAt: Number(row.createdAt),
  };
}

/** `lock` (in a transaction) serialises seq allocation per thread across connections (see row-lock.ts). */
export function messageStore(db: Db, lock: ThreadLock | null = null): MessageStore {
  // Read before every append: plain SQL shared by SQLite and PostgreSQL costs half the query builder's aggregate.
  const lastSeq = async (threadId: string) => {
    const [row] = await db.$queryRaw<{ seq: number | bigint | null }[]>`SELECT MAX("seq") AS "seq" FROM "Message" WHERE "threadId" = ${threadId}`;
    return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
  };
  return {
    lastSeq,
    async append(threadId, m: NewMessage) {
      await lock?.(threadId);
      // One statement, one round trip: the seq is the thread's last plus one, read in the INSERT itself (the thread is
      // locked in a transaction, see row-lock.ts). Plain SQL shared by both databases; the record is built from the
      // values bound, each JSON column read back from its own text (what a read returns), with no row to map.
      const id = m.id ?? newId();
      const text = (v: unknown, field: string) => toNullableJsonText(v, { model: "Message", field });
      const toolCalls = text(m.toolCalls, "toolCalls");
      const attachments = text(m.attachments && m.attachments.length > 0 ? m.attachments : null, "attachments");
      const metadata = text(m.metadata, "metadata");
      const createdAt = m.createdAt ?? nowMicros();
      const [row] = await db.$queryRaw<{ seq: number | bigint }[]>`
        INSERT INTO "Message" ("id", "threadId", "seq", "role", "content", "name", "toolCalls", "toolCallId", "toolStatus", "reasoningContent", "attachments", "silent", "depth", "side", "metadata", "subagentId", "createdAt", "updatedAt")
        VALUES (${id}, ${threadId}, (SELECT COALESCE(MAX("seq"), 0) + 1 FROM "Message" WHERE "threadId" = ${threadId}), ${m.role}, ${m.content}, ${m.name ?? null}, ${toolCalls}, ${m.toolCallId ?? null}, ${m.toolStatus ?? null}, ${m.reasoningContent ?? null}, ${attachments}, ${m.silent === true}, ${m.depth}, ${m.side ?? null}, ${metadata}, ${m.subagentId ?? null}, ${BigInt(createdAt)}, ${new Date()})
        RETURNING "seq"`;
      const json = <T>(t: string | null) => (t === null ? null : (JSON.parse(t) as T));
      return appendedRecord(
        { ...m, toolCalls: json(toolCalls), attachments: json(attachments), metadata: json(metadata) },
        { id, threadId, seq: Number(row!.seq), createdAt },
      );
    },
    async get(id) {
      const row = await db.message.findUnique({ where: { id } });
      return row ? toMessageRecord(row) : null;
    },
    async list(threadId, o = {}) {
      const rows = await db.message.findMany({
        where: {
          threadId,
          ...(o.includeSilent ? {} : { silent: false }),
          ...(o.afterSeq !== undefined || o.beforeSeq !== undefined
            ? { seq: { ...(o.afterSeq !== undefined ? { gt: o.afterSeq } : {}), ...(o.beforeSeq !== undefined ? { lt: o.beforeSeq } : {}) } }
            : {}),
        },
        orderBy: { seq: o.order === "desc" ? "desc" : "asc" },
        ...(o.offset ? { skip: o.offset } : {}),
        ...(o.limit !== undefined ? { take: o.limit } : {}),
      });
      return rows.map(toMessageRecord);
    },
    async count(threadId, o = {}) {
      return db.message.count({ where: { threadId, ...(o.includeSilent ? {} : { silent: false }) } });
    },
    async update(id, patch) {
      const row = await db.message.update({
        where: { id },
        data: {
          ...(patch.content !== undefined ? { content: patch.content } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.toolCalls !== undefined ? { toolCalls: toNullableJsonColumn(patch.toolCalls, { model: "Message", field: "toolCalls", id }) } : {}),
          ...(patch.toolStatus !== undefined ? { toolStatus: patch.toolStatus } : {}),
          ...(patch.reasoningContent !== undefined ? { reasoningContent: patch.reasoningContent } : {}),
          ...(patch.attachments !== undefined ? { attachments: toNullableJsonColumn(patch.attachments, { model: "Message", field: "attachments", id }) } : {}),
          ...(patch.silent !== undefined ? { silent: patch.silent } : {}),
          ...(patch.metadata !== undefined ? { metadata: toNullableJsonColumn(patch.metadata, { model: "Message", field: "metadata", id }) } : {}),
          ...(patch.subagentId !== undefined ? { subagentId: patch.subagentId } : {}),
        },
      });
      return toMessageRecord(row);
    },
    async delete(id) {
      const r = await db.message.deleteMany({ where: { id } });
      return r.count > 0;
    },
  };
}

export function toQueued(row: QueuedMessage): QueuedMessageRecord {
  return {
    id: row.id,
    threadId: row.threadId,
    seq: row.seq,
    role: row.role as "user" | "assistant",
    content: row.content,
    attachments: parseOptionalJsonColumn(attachmentsSchema, row.attachments, { model: "QueuedMessage", field: "attachments", id: row.id }),
    silent: row.silent,
    metadata: parseOptionalJsonColumn(objectSchema, row.metadata, { model: "QueuedMessage", field: "metadata", id: row.id }),
    status: row.status as QueuedMessageRecord["status"],
    createdAt: row.createdAt,
  };
}

export function queueStore(db: Db, lock: ThreadLock | null = null): QueueStore {
  return {
    async enqueue(threadId, input) {
      await lock?.(threadId);
      const seq = ((await db.queuedMessage.aggregate({ where: { threadId }, _max: { seq: true } }))._max.seq ?? 0) + 1;
      const row = await db.queuedMessage.create({
        data: {
          threadId,
          seq,
          role: input.role,
          content: input.content,
          attachments: toNullableJsonColumn(input.attachments && input.attachments.length > 0 ? input.attachments : null, { model: "QueuedMessage", field: "attachments" }),
          silent: input.silent ?? false,
          metadata: toNullableJsonColumn(input.metadata, { model: "QueuedMessage", field: "metadata" }),
        },
      });
      return toQueued(row);
    },
    async pending(threadId) {
      const rows = await db.queuedMessage.findMany({ where: { threadId, status: "pending" }, orderBy: { seq: "asc" } });
      return rows.map(toQueued);
    },
    async markDelivered(id, messageId) {
      await db.queuedMessage.update({ where: { id }, data: { status: "delivered", deliveredAt: new Date(), deliveredMessageId: messageId } });
    },
    async rejectPending(threadId) {
      return (await db.queuedMessage.updateMany({ where: { threadId, status: "pending" }, data: { status: "rejected" } })).count;
    },
  };
}
