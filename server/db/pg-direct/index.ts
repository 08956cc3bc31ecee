import type { Stores } from "@/server/runtime/ports";
import type { Thread } from "../generated/prisma/client";
import type { ThreadLock } from "../row-lock";
import type { StateCache } from "../sqlite-direct/state-cache";
import { toThread } from "../sqlite-direct/threads";
import type { Runner } from "./connection";
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
  const b = base as never;
  switch (key) {
    case "threads":
      return pgThreads(sql, states, b) as Stores[K];
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
