import type { Stores } from "@/server/runtime/ports";
import type { DirectSqlite } from "./connection";
import { directFiles } from "./files";
import { directMessages } from "./messages";
import { directQueue } from "./queue";
import { directEnv, directLlmLogs } from "./registry-env-logs";
import { directSubagents } from "./subagents";
import { directEvents } from "./events";
import { directThreads } from "./threads";
import { directToolCallRuns } from "./tool-call-runs";
import { directWork } from "./work";

const DIRECT = {
  threads: directThreads,
  events: directEvents,
  messages: directMessages,
  queue: directQueue,
  subagents: directSubagents,
  env: directEnv,
  llmLogs: directLlmLogs,
  work: directWork,
  files: directFiles,
  toolCallRuns: directToolCallRuns,
} as const;

/**
 * A store with its per-step methods on the SQLite connection directly (see connection.ts): thread read and update,
 * event appends, message reads and appends, the queue and the work items of every turn, registry reads, visible env,
 * LLM request logs, and the folder inserts-if-absent Prisma would run in a transaction of its own. Every other
 * method is the Prisma store's, and so is every method until Prisma has opened its connection. `inTransaction`: the
 * store is bound to a runtime transaction (its methods must not open one of their own).
 */
export function withDirectSqlite<K extends keyof Stores>(sql: DirectSqlite, key: K, base: Stores[K], inTransaction: boolean): Stores[K] {
  const make = (DIRECT as Record<string, ((sql: DirectSqlite, base: never, inTransaction: boolean) => object) | undefined>)[key];
  return make ? overlay(sql, base, make(sql, base as never, inTransaction) as Stores[K], inTransaction) : base;
}

type Methods = Record<string, (...args: never[]) => unknown>;

/**
 * Each method of `direct` that differs from `base`'s, falling back to `base`'s while the connection is not open. The
 * stores outside a transaction also fall back while one is open on the connection: the direct statements and their
 * caches would see its uncommitted rows, the Prisma store reads the committed state on the read-only connection (and
 * writes after the transaction; see read-connection.ts).
 */
function overlay<S extends object>(sql: DirectSqlite, base: S, direct: S, inTransaction: boolean): S {
  const out = { ...base } as Methods;
  const b = base as unknown as Methods;
  for (const [name, fn] of Object.entries(direct as unknown as Methods)) {
    if (fn === b[name]) continue;
    out[name] = inTransaction
      ? (...args: never[]) => (sql.ready ? fn(...args) : b[name]!(...args))
      : (...args: never[]) => (sql.ready && !sql.inTransaction ? fn(...args) : b[name]!(...args));
  }
  return out as unknown as S;
}

export { DirectSqlite } from "./connection";
