import type { ToolCallRunStore } from "@/server/runtime/ports";
import type { Db } from "../client";

/** Count one start of a call and read the count back, in one statement (SQLite and PostgreSQL alike). */
export const START_TOOL_CALL_RUN = `INSERT INTO "ToolCallRun" ("messageId", "toolCallId", "attempts") VALUES ($1, $2, 1)
  ON CONFLICT ("messageId", "toolCallId") DO UPDATE SET "attempts" = "ToolCallRun"."attempts" + 1 RETURNING "attempts"`;

export function toolCallRunStore(db: Db): ToolCallRunStore {
  return {
    async start(messageId, toolCallId) {
      // No transaction of its own: on SQLite, the runtime's transaction holds the one connection.
      const rows = await db.$queryRawUnsafe<{ attempts: number | bigint }[]>(START_TOOL_CALL_RUN, messageId, toolCallId);
      return Number(rows[0]!.attempts);
    },
  };
}
