import type { ToolCallRunStore } from "@/server/runtime/ports";
import { START_TOOL_CALL_RUN } from "../repositories/tool-call-runs";
import type { DirectSqlite } from "./connection";

/** `start` on the connection directly: a write through Prisma would mark every cached read stale (connection.ts). */
export function directToolCallRuns(sql: DirectSqlite, base: ToolCallRunStore): ToolCallRunStore {
  return {
    ...base,
    async start(messageId, toolCallId) {
      return Number(sql.get<{ attempts: number }>(START_TOOL_CALL_RUN.replace("$1", "?").replace("$2", "?"), messageId, toolCallId)!.attempts);
    },
  };
}
