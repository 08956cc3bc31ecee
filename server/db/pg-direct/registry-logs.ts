import { newId } from "@/server/runtime/ids";
import type { EnvStore, LlmLogStore, NewLlmLog, SubagentStore, ToolCallRunStore } from "@/server/runtime/ports";
import type { EnvValue } from "../generated/prisma/client";
import { toJsonText, toNullableJsonText } from "../json";
import { visibleEnv } from "../repositories/env-files";
import { toEntry } from "../repositories/subagents";
import { START_TOOL_CALL_RUN } from "../repositories/tool-call-runs";
import { readDate, sqlDate } from "../sqlite-direct/columns";
import { COMPLETE_LOG, INSERT_LOG, INTERRUPT_PENDING } from "../sqlite-direct/registry-env-logs";
import { toSubagentRow } from "../sqlite-direct/subagents";
import { ENV_CHANNEL } from "../env-cache";
import type { Row, Runner } from "./connection";

/** The registry reads of every step (`get`, `listByParent`); writes stay with the Prisma store. */
export function pgSubagents(sql: Runner, base: SubagentStore): SubagentStore {
  return {
    ...base,
    async get(childId) {
      const row = await sql.get<Row>(`SELECT * FROM "SubagentEntry" WHERE "childId" = ?`, childId);
      return row ? toEntry(toSubagentRow(row)) : null;
    },
    async listByParent(parentId) {
      const rows = await sql.all<Row>(`SELECT * FROM "SubagentEntry" WHERE "parentId" = ? ORDER BY "createdAt" ASC, "id" ASC`, parentId);
      return rows.map((r) => toEntry(toSubagentRow(r)));
    },
  };
}

/**
 * `visible` (behind the cache of cached-env.ts); the admin reads and the writes stay with the Prisma store. A write
 * also tells every listening process that its cached env is stale (the NOTIFY goes out with the commit).
 */
export function pgEnv(sql: Runner, base: EnvStore): EnvStore {
  const announce = () => sql.write(`SELECT pg_notify(?, '')`, ENV_CHANNEL);
  return {
    ...base,
    async set(...args) {
      await base.set(...args);
      await announce();
    },
    async delete(...args) {
      const deleted = await base.delete(...args);
      if (deleted) await announce();
      return deleted;
    },
    async visible(threadId, userId) {
      const rows = (
        await sql.all<Row>(
          `SELECT * FROM "EnvValue" WHERE ("scope" = 'thread' AND "ownerKey" = ?) OR ("scope" = 'user' AND "ownerKey" = ?) OR ("scope" = 'instance' AND "ownerKey" = 'instance')`,
          threadId,
          userId ?? null,
        )
      ).map((r) => ({ ...(r as unknown as EnvValue), createdAt: readDate(r.createdAt), updatedAt: readDate(r.updatedAt) }));
      return visibleEnv(rows, threadId, userId);
    },
  };
}

/**
 * The LLM request log of every request: its row is written when the request is sent and completed with the answer.
 * Neither is read back, so in a transaction both go out without waiting (they travel with the next statement or the
 * commit, which fails if they did).
 */
export function pgLlmLogs(sql: Runner, base: LlmLogStore): LlmLogStore {
  return {
    ...base,
    async insert(log: NewLlmLog) {
      const requestText = log.requestText ?? toJsonText(log.request ?? {}, { model: "LlmRequestLog", field: "request" });
      const responseText = toNullableJsonText(log.response, { model: "LlmRequestLog", field: "response" });
      const id = log.id ?? newId();
      await sql.write(
        INSERT_LOG,
        id,
        log.threadId,
        log.messageId,
        log.side,
        log.step,
        log.modelName,
        log.provider,
        log.modelId,
        log.attempt,
        requestText,
        responseText,
        log.status,
        log.error,
        log.inputTokens,
        log.outputTokens,
        log.cachedTokens,
        log.cost,
        log.latencyMs,
        log.ttftMs,
        sqlDate(log.startedAt),
        log.finishedAt ? sqlDate(log.finishedAt) : null,
      );
      return { ...log, id, response: log.response ?? null };
    },
    async complete(id, o) {
      await sql.write(
        COMPLETE_LOG,
        o.messageId,
        toNullableJsonText(o.response, { model: "LlmRequestLog", field: "response" }),
        o.status,
        o.error,
        o.inputTokens,
        o.outputTokens,
        o.cachedTokens,
        o.cost,
        o.latencyMs,
        o.ttftMs,
        o.finishedAt ? sqlDate(o.finishedAt) : null,
        id,
      );
    },
    async interruptPending(threadId, error) {
      return sql.run(INTERRUPT_PENDING, error, sqlDate(new Date()), threadId);
    },
  };
}

/** `start`: the attempt counter of a tool call, one upsert. */
export function pgToolCallRuns(sql: Runner, base: ToolCallRunStore): ToolCallRunStore {
  return {
    ...base,
    async start(messageId, toolCallId) {
      const sqlText = START_TOOL_CALL_RUN.replace("$1", "?").replace("$2", "?");
      // A call of a message appended in this transaction starts its first attempt: the upsert goes out without
      // waiting (with the next statement or the COMMIT, which fails if the count it finds is not 1).
      if (sql.appendedHere(messageId)) {
        await sql.write(`WITH "s" AS (${sqlText}) ${FIRST_ATTEMPT}`, messageId, toolCallId);
        return 1;
      }
      return Number((await sql.get<{ attempts: number }>(sqlText, messageId, toolCallId))!.attempts);
    },
  };
}

/** The first attempt must count 1, else the statement fails (as threads.ts's checked event append). */
const FIRST_ATTEMPT = `SELECT CAST(COALESCE((SELECT CASE WHEN "attempts" = 1 THEN '1' ELSE 'tool call attempt ' || "attempts"::text || ' not expected' END FROM "s"), 'no attempt row') AS int) AS "ok"`;
