import { newId } from "@/server/runtime/ids";
import type { EnvStore, LlmLogStore, NewLlmLog } from "@/server/runtime/ports";
import type { EnvValue } from "../generated/prisma/client";
import { toJsonText, toNullableJsonText } from "../json";
import { byCodeUnit, toEnvRecord, visibleEnv } from "../repositories/env-files";
import { readDate, sqlDate } from "./columns";
import type { DirectSqlite } from "./connection";
import { guarded } from "./errors";

type Row = Record<string, unknown>;

const toEnvValue = (r: Row): EnvValue => ({ ...(r as unknown as EnvValue), createdAt: readDate(r.createdAt), updatedAt: readDate(r.updatedAt) });

/**
 * `visible`, read for each step's context and redaction (through the cache of cached-env.ts, as on PostgreSQL), and
 * `list`, read for every thread created (the instance's and the user's values) and spawned (the parent's); the admin
 * reads and the writes stay with the Prisma store.
 */
export function directEnv(sql: DirectSqlite, base: EnvStore): EnvStore {
  return {
    ...base,
    async visible(threadId, userId) {
      const rows = sql
        .all<Row>(
          `SELECT * FROM "EnvValue" WHERE ("scope" = 'thread' AND "ownerKey" = ?) OR ("scope" = 'user' AND "ownerKey" = ?) OR ("scope" = 'instance' AND "ownerKey" = 'instance')`,
          threadId,
          userId ?? null,
        )
        .map(toEnvValue);
      return visibleEnv(rows, threadId, userId);
    },
    async list(scope, ownerKey) {
      const rows = sql.all<Row>(`SELECT * FROM "EnvValue" WHERE "scope" = ? AND "ownerKey" = ?`, scope, ownerKey).map(toEnvValue);
      return rows.sort(byCodeUnit((r) => r.name)).map(toEnvRecord);
    },
  };
}

const LOG_COLUMNS = [
  "id",
  "threadId",
  "messageId",
  "side",
  "step",
  "modelName",
  "provider",
  "modelId",
  "attempt",
  "request",
  "response",
  "status",
  "error",
  "inputTokens",
  "outputTokens",
  "cachedTokens",
  "cost",
  "latencyMs",
  "ttftMs",
  "startedAt",
  "finishedAt",
] as const;
export const INSERT_LOG = `INSERT INTO "LlmRequestLog" (${LOG_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${LOG_COLUMNS.map(() => "?").join(", ")})`;

export const COMPLETE_LOG = `UPDATE "LlmRequestLog" SET "messageId" = ?, "response" = ?, "status" = ?, "error" = ?, "inputTokens" = ?, "outputTokens" = ?, "cachedTokens" = ?, "cost" = ?, "latencyMs" = ?, "ttftMs" = ?, "finishedAt" = ? WHERE "id" = ?`;
export const INTERRUPT_PENDING = `UPDATE "LlmRequestLog" SET "status" = 'interrupted', "error" = ?, "finishedAt" = ? WHERE "threadId" = ? AND "status" = 'pending'`;

/** `insert`, one per LLM request (the row is not read back; see repositories/events.ts). */
export function directLlmLogs(sql: DirectSqlite, base: LlmLogStore): LlmLogStore {
  return {
    ...base,
    async insert(log: NewLlmLog) {
      const requestText = log.requestText ?? toJsonText(log.request ?? {}, { model: "LlmRequestLog", field: "request" });
      const responseText = toNullableJsonText(log.response, { model: "LlmRequestLog", field: "response" });
      const id = log.id ?? newId();
      guarded(() =>
        sql.run(
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
        ),
      );
      // The request holds the whole conversation: the caller's values are returned rather than parsed back.
      return { ...log, id, response: log.response ?? null };
    },
    async complete(id, o) {
      guarded(() =>
        sql.run(
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
        ),
      );
    },
    async interruptPending(threadId, error) {
      return guarded(() => sql.run(INTERRUPT_PENDING, error, sqlDate(new Date()), threadId));
    },
  };
}
