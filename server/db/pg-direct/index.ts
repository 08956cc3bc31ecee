import type { Stores } from "@/server/runtime/ports";
import type { Thread } from "../generated/prisma/client";
import type { ThreadLock } from "../row-lock";
import type { StateCache } from "../sqlite-direct/state-cache";
import { toThread } from "../sqlite-direct/threads";
import { DirectPg, type Runner } from "./connection";
import type { PgHistoryCache } from "./history";
import { pgMessages, pgQueue } from "./messages";
import { pgEnv, pgLlmLogs, pgSubagents, pgToolCallRuns } from "./registry-logs";
import { pgEvents, pgThreads } from "./threads";
import type { PgTransaction } from "./transactions";

/**
 * A store with its per-step methods on node-postgres directly (see connection.ts): thread read and update, event
 * appends, message reads and appends, the pending queue and its delivery, registry reads, visible env, LLM request
 * logs and tool-call attempts. Every other method is the Prisma store's, run on the same connection in a transaction.
 */
export function withDirectPg<K extends keyof Stores>(sql: Runner, caches: PgCaches, key: K, base: Stores[K]): Stores[K] {
  const { states, history } = caches;
  // Outside a transaction the Prisma store's methods run on their own: any of them may write what a stepping thread's
  // prefetched reads read (in a transaction, its Prisma queries drop them, see transactions.ts).
  const b = (sql instanceof DirectPg && !UNRELATED.has(key) ? droppingPrefetches(sql, base) : base) as never;
  switch (key) {
    case "threads":
      return pgThreads(sql, states, history, b) as Stores[K];
    case "events":
      return pgEvents(sql, b) as Stores[K];
    case "messages":
      return pgMessages(sql, history, b) as Stores[K];
    case "queue":
      return pgQueue(sql, b) as Stores[K];
    case "subagents":
      return pgSubagents(sql, b) as Stores[K];
    case "env":
      return pgEnv(sql, b) as Stores[K];
    case "llmLogs":
      return pgLlmLogs(sql, b) as Stores[K];
    case "toolCallRuns":
      return pgToolCallRuns(sql, b) as Stores[K];
    default:
      return base;
  }
}

/** Stores whose writes never touch the rows a step's start reads (thread, queue, messages, registry). */
const UNRELATED = new Set<keyof Stores>(["work", "llmLogs", "toolCallRuns", "env"]);

/** The store with each method first dropping the prefetched reads (prefetch.ts). */
function droppingPrefetches<T>(sql: DirectPg, base: T): T {
  const out = { ...base } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(out)) {
    if (typeof fn !== "function") continue;
    out[name] = (...args: unknown[]) => {
      sql.prefetch.wroteAny();
      return (fn as (...a: unknown[]) => unknown).apply(base, args);
    };
  }
  return out as T;
}

/** What a process keeps of recently stepped threads: parsed states, histories. */
export interface PgCaches {
  states: StateCache;
  history: PgHistoryCache;
}

/** The thread lock of the Prisma stores in a direct transaction: the transaction's own (one lock per thread). */
export function pgThreadLock(t: PgTransaction): ThreadLock {
  return Object.assign(
    async (threadId: string) => {
      await t.lock(threadId);
    },
    {
      row: async (threadId: string): Promise<Thread | null | undefined> => {
        const held = t.lockedRow(threadId);
        if (held === undefined) return undefined;
        const row = await held;
        return row ? toThread(row, true) : null;
      },
      // A Prisma store wrote the row: the held copy is stale; the next read locks (again, at no cost) and reads it.
      wrote: (threadId: string) => t.forgetLocked(threadId),
    },
  );
}

export { DirectPg } from "./connection";
export { PgHistoryCache } from "./history";
export { PgTransaction } from "./transactions";
export { PrismaBridge } from "./prisma-bridge";
