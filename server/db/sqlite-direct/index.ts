import type { Stores } from "@/server/runtime/ports";
import type { DirectSqlite } from "./connection";
import { directMessages, directQueue } from "./messages";
import { directEnv, directLlmLogs, directSubagents } from "./registry-env-logs";
import { directEvents, directThreads } from "./threads";

/**
 * The stores with their per-step methods on the SQLite connection directly (see connection.ts): thread read and
 * update, event appends, message reads and appends, pending queue, registry reads, visible env, LLM request logs.
 * Everything else is the Prisma store it wraps, and so is every method until Prisma has opened its connection.
 */
export function withDirectSqlite(sql: DirectSqlite, base: Stores): Stores {
  return {
    ...base,
    threads: overlay(sql, base.threads, directThreads(sql, base.threads)),
    events: overlay(sql, base.events, directEvents(sql, base.events)),
    messages: overlay(sql, base.messages, directMessages(sql, base.messages)),
    queue: overlay(sql, base.queue, directQueue(sql, base.queue)),
    subagents: overlay(sql, base.subagents, directSubagents(sql, base.subagents)),
    env: overlay(sql, base.env, directEnv(sql, base.env)),
    llmLogs: overlay(sql, base.llmLogs, directLlmLogs(sql, base.llmLogs)),
  };
}

type Methods = Record<string, (...args: never[]) => unknown>;

/** Each method of `direct` that differs from `base`'s, falling back to `base`'s while the connection is not open. */
function overlay<S extends object>(sql: DirectSqlite, base: S, direct: S): S {
  const out = { ...base } as Methods;
  const b = base as unknown as Methods;
  for (const [name, fn] of Object.entries(direct as unknown as Methods)) {
    if (fn === b[name]) continue;
    out[name] = (...args: never[]) => (sql.ready ? fn(...args) : b[name]!(...args));
  }
  return out as unknown as S;
}

export { DirectSqlite } from "./connection";
