import { runtimeEventSchema, type RuntimeEvent, type ThreadEventEnvelope } from "@/shared/runtime-events";
import type { EventLog, LlmLogRecord, LlmLogStatus, LlmLogStore, NewLlmLog, Side } from "@/server/runtime/ports";
import { NotFoundError } from "@/server/runtime/errors";
import { Prisma, type Db } from "../client";
import type { DatabaseKind } from "../database-url";
import type { LlmRequestLog, ThreadEvent } from "../generated/prisma/client";
import { parseJsonColumn, toJsonColumn, toNullableJsonColumn } from "../json";

export function toEnvelope(row: ThreadEvent): ThreadEventEnvelope {
  return {
    threadId: row.threadId,
    seq: row.seq,
    persisted: true,
    at: row.createdAt.toISOString(),
    event: parseJsonColumn(runtimeEventSchema, row.data, { model: "ThreadEvent", field: "data", id: `${row.threadId}#${row.seq}` }),
  };
}

/** The append-only per-thread event log: the thread row's counter gives each event the next contiguous seq. */
export function eventLog(db: Db, kind: DatabaseKind = "sqlite"): EventLog {
  /**
   * One `UPDATE Thread ... RETURNING` reserves `events.length` seqs (the row lock serialises writers, so the range is
   * ours), then one INSERT stores them all. The stored value is the JSON form of events our own (typed) code just
   * built: the envelopes carry that same JSON form, without reading rows back or re-validating them (rows are
   * validated when read from the log).
   *
   * Every persisted event passes here (several per step), so both statements are plain SQL that SQLite and PostgreSQL
   * share (quoted identifiers, `RETURNING`, a multi-row `VALUES`): half the cost of the same two writes through the
   * query builder; PostgreSQL runs them as one statement. The columns hold what the query builder would store (the
   * JSON text, the time through the driver).
   */
  async function appendMany(threadId: string, events: RuntimeEvent[]): Promise<ThreadEventEnvelope[]> {
    if (events.length === 0) return [];
    const data = events.map((e) => toJsonColumn(e, { model: "ThreadEvent", field: "data" }));
    const createdAt = new Date();
    const first = kind === "postgresql" ? await reserveAndInsert(threadId, events, data, createdAt) : await reserveThenInsert(threadId, events, data, createdAt);
    const rows = events.map((e, i) => ({ threadId, seq: first + i, type: e.type, data: data[i]! }));
    const at = createdAt.toISOString();
    return rows.map((r) => ({ threadId, seq: r.seq, persisted: true, at, event: r.data as RuntimeEvent }));
  }
  /** The two statements, on either database; returns the first reserved seq. */
  async function reserveThenInsert(threadId: string, events: RuntimeEvent[], data: unknown[], createdAt: Date): Promise<number> {
    const reserved = await db.$queryRaw<{ eventSeq: number | bigint }[]>`
      UPDATE "Thread" SET "eventSeq" = "eventSeq" + ${events.length} WHERE "id" = ${threadId} RETURNING "eventSeq"`;
    if (reserved.length === 0) throw new NotFoundError(`Thread ${threadId} not found`);
    const first = Number(reserved[0]!.eventSeq) - events.length + 1;
    const values = events.map((e, i) => Prisma.sql`(${threadId}, ${first + i}, ${e.type}, ${JSON.stringify(data[i])}, ${createdAt})`);
    await db.$executeRaw`INSERT INTO "ThreadEvent" ("threadId", "seq", "type", "data", "createdAt") VALUES ${Prisma.join(values)}`;
    return first;
  }

  /**
   * PostgreSQL: the same two writes in one statement (one round trip), the UPDATE in a data-modifying `WITH` whose
   * counter numbers the unnested events. The INSERT runs whether or not the final SELECT reads it.
   */
  async function reserveAndInsert(threadId: string, events: RuntimeEvent[], data: unknown[], createdAt: Date): Promise<number> {
    const n = events.length;
    const reserved = await db.$queryRaw<{ first: number | bigint }[]>`
      WITH "r" AS (UPDATE "Thread" SET "eventSeq" = "eventSeq" + ${n} WHERE "id" = ${threadId} RETURNING "eventSeq"),
      "i" AS (
        INSERT INTO "ThreadEvent" ("threadId", "seq", "type", "data", "createdAt")
        SELECT ${threadId}, "r"."eventSeq" - ${n} + "e"."ord", "e"."type", "e"."data", CAST(${createdAt} AS timestamp(3))
        FROM "r", unnest(CAST(${events.map((e) => e.type)} AS text[]), CAST(${data.map((d) => JSON.stringify(d))} AS json[])) WITH ORDINALITY AS "e"("type", "data", "ord")
      )
      SELECT "eventSeq" - ${n} + 1 AS "first" FROM "r"`;
    if (reserved.length === 0) throw new NotFoundError(`Thread ${threadId} not found`);
    return Number(reserved[0]!.first);
  }

  return {
    async append(threadId: string, event: RuntimeEvent) {
      return (await appendMany(threadId, [event]))[0]!;
    },
    appendMany,
    async after(threadId, afterSeq, limit = 1000) {
      const rows = await db.threadEvent.findMany({ where: { threadId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, take: limit });
      return rows.map(toEnvelope);
    },
    async lastSeq(threadId) {
      return (await db.thread.findUnique({ where: { id: threadId }, select: { eventSeq: true } }))?.eventSeq ?? 0;
    },
  };
}

function toLog(row: LlmRequestLog): LlmLogRecord {
  return {
    id: row.id,
    threadId: row.threadId,
    messageId: row.messageId,
    side: row.side as Side | null,
    step: row.step,
    modelName: row.modelName,
    provider: row.provider,
    modelId: row.modelId,
    attempt: row.attempt,
    request: row.request,
    response: row.response,
    status: row.status as LlmLogStatus,
    error: row.error,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cachedTokens: row.cachedTokens,
    cost: row.cost,
    latencyMs: row.latencyMs,
    ttftMs: row.ttftMs,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

export function llmLogStore(db: Db): LlmLogStore {
  return {
    /**
     * The request holds the whole conversation, so the row is not read back (nor its JSON parsed again): the record
     * is built from what was stored, in the JSON form the column holds.
     */
    async insert(log: NewLlmLog) {
      const request = toJsonColumn(log.request ?? {}, { model: "LlmRequestLog", field: "request" });
      const response = toNullableJsonColumn(log.response, { model: "LlmRequestLog", field: "response" });
      const { id } = await db.llmRequestLog.create({
        data: {
          ...(log.id ? { id: log.id } : {}),
          threadId: log.threadId,
          messageId: log.messageId,
          side: log.side,
          step: log.step,
          modelName: log.modelName,
          provider: log.provider,
          modelId: log.modelId,
          attempt: log.attempt,
          request,
          response,
          status: log.status,
          error: log.error,
          inputTokens: log.inputTokens,
          outputTokens: log.outputTokens,
          cachedTokens: log.cachedTokens,
          cost: log.cost,
          latencyMs: log.latencyMs,
          ttftMs: log.ttftMs,
          startedAt: log.startedAt,
          finishedAt: log.finishedAt,
        },
        select: { id: true },
      });
      return { ...log, id, request, response: response === Prisma.DbNull ? null : response };
    },
    async complete(id, o) {
      await db.llmRequestLog.update({
        where: { id },
        data: {
          messageId: o.messageId,
          response: toNullableJsonColumn(o.response, { model: "LlmRequestLog", field: "response" }),
          status: o.status,
          error: o.error,
          inputTokens: o.inputTokens,
          outputTokens: o.outputTokens,
          cachedTokens: o.cachedTokens,
          cost: o.cost,
          latencyMs: o.latencyMs,
          ttftMs: o.ttftMs,
          finishedAt: o.finishedAt,
        },
        select: { id: true },
      });
    },
    async interruptPending(threadId, error) {
      const { count } = await db.llmRequestLog.updateMany({
        where: { threadId, status: "pending" },
        data: { status: "interrupted", error, finishedAt: new Date() },
      });
      return count;
    },
    async list(threadId, o = {}) {
      const rows = await db.llmRequestLog.findMany({ where: { threadId }, orderBy: [{ startedAt: o.order ?? "asc" }, { id: o.order ?? "asc" }], skip: o.offset ?? 0, take: o.limit ?? 200 });
      return rows.map(toLog);
    },
    async get(id) {
      const row = await db.llmRequestLog.findUnique({ where: { id } });
      return row ? toLog(row) : null;
    },
    async storedRequests(ids) {
      if (ids.length === 0) return [];
      return db.llmRequestLog.findMany({ where: { id: { in: ids } }, select: { id: true, request: true } });
    },
    async totals(threadIds) {
      const agg = await db.llmRequestLog.aggregate({
        where: { threadId: { in: threadIds } },
        _sum: { inputTokens: true, outputTokens: true, cachedTokens: true, cost: true },
        _count: { _all: true },
      });
      return {
        inputTokens: agg._sum.inputTokens ?? 0,
        outputTokens: agg._sum.outputTokens ?? 0,
        cachedTokens: agg._sum.cachedTokens ?? 0,
        cost: agg._sum.cost ?? 0,
        requests: agg._count._all,
      };
    },
  };
}
