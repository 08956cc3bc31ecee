import type { RuntimeEvent, ThreadEventEnvelope } from "@/shared/runtime-events";
import { NotFoundError } from "@/server/runtime/errors";
import type { EventLog } from "@/server/runtime/ports";
import type { ThreadEvent } from "../generated/prisma/client";
import { appendedEnvelopes, eventTexts } from "../event-texts";
import { toEnvelope } from "../repositories/events";
import { readDate, readJson, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";

type Row = Record<string, unknown>;

const RESERVE = `UPDATE "Thread" SET "eventSeq" = "eventSeq" + ? WHERE "id" = ? RETURNING "eventSeq"`;
const AFTER = `SELECT "threadId", "seq", "type", "data", "createdAt" FROM "ThreadEvent" WHERE "threadId" = ? AND "seq" > ? ORDER BY "seq" ASC LIMIT ?`;
const LAST = `SELECT "eventSeq" FROM "Thread" WHERE "id" = ?`;

/** The INSERT of a batch of `n` events, its text built once per batch size. */
const inserts: string[] = [];
function insertText(n: number): string {
  let text = inserts[n];
  if (text === undefined) {
    const values = Array.from({ length: n }, () => "(?, ?, ?, ?, ?)").join(", ");
    text = `INSERT INTO "ThreadEvent" ("threadId", "seq", "type", "data", "createdAt") VALUES ${values}`;
    if (n <= 64) inserts[n] = text;
  }
  return text;
}

/**
 * The event log's appends (several per step): the thread row's counter reserves the seqs, one INSERT stores the
 * transaction's events of the thread (see repositories/events.ts for the same two statements through Prisma).
 * Each event's text is built once (event-texts.ts) and kept with its envelope.
 */
export function directEvents(sql: DirectSqlite, base: EventLog): EventLog {
  function appendMany(threadId: string, events: RuntimeEvent[]): ThreadEventEnvelope[] {
    const n = events.length;
    if (n === 0) return [];
    const stored = eventTexts(events);
    const { texts } = stored;
    const stamp = sql.stamp();
    const reserved = sql.get<{ eventSeq: number }>(RESERVE, n, threadId);
    if (!reserved) throw new NotFoundError(`Thread ${threadId} not found`);
    const eventSeq = reserved.eventSeq;
    // The cached row is ours to change (rows are copied into records as they are read).
    sql.rows.patch(threadId, stamp, (row) => {
      row.eventSeq = eventSeq;
      return row;
    });
    const first = eventSeq - n + 1;
    const createdAt = new Date();
    const at = sqlDate(createdAt);
    const args: unknown[] = new Array<unknown>(n * 5);
    for (let i = 0, k = 0; i < n; i++) {
      args[k++] = threadId;
      args[k++] = first + i;
      args[k++] = events[i]!.type;
      args[k++] = texts[i];
      args[k++] = at;
    }
    sql.run(insertText(n), ...args);
    return appendedEnvelopes(threadId, first, createdAt.toISOString(), events, stored);
  }
  return {
    ...base,
    async append(threadId, event) {
      return appendMany(threadId, [event])[0]!;
    },
    async appendMany(threadId, events) {
      return appendMany(threadId, events);
    },
    async after(threadId, afterSeq, limit = 1000) {
      // Each SSE stream and tRPC subscription reads the log once as it starts (and again to fill a gap).
      const rows = sql.all<Row>(AFTER, threadId, afterSeq, limit);
      return rows.map((r) => toEnvelope({ ...(r as unknown as ThreadEvent), data: readJson(r.data) as ThreadEvent["data"], createdAt: readDate(r.createdAt) }));
    },
    async lastSeq(threadId) {
      return sql.get<{ eventSeq: number }>(LAST, threadId)?.eventSeq ?? 0;
    },
  };
}
