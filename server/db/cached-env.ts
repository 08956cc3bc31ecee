import type { EnvStore } from "@/server/runtime/ports";
import { directSqliteOf, type PrismaClient } from "./client";
import { EnvCache } from "./env-cache";

const caches = new WeakMap<PrismaClient, EnvCache>();

/** The visible-env cache of a client: its SQLite connection's (rolled back with it), else one of its own. */
export function envCacheOf(prisma: PrismaClient): EnvCache {
  const direct = directSqliteOf(prisma);
  if (direct) return direct.env;
  let cache = caches.get(prisma);
  if (!cache) caches.set(prisma, (cache = new EnvCache()));
  return cache;
}

/**
 * `visible` through the cache (env-cache.ts). Inside a transaction a read uses what is cached but never adds to it:
 * it may see the transaction's own uncommitted writes. A write makes the cache stale before it runs (a read racing
 * it), after it (what it wrote) and once its transaction has committed (a read outside the transaction, meanwhile,
 * saw the value before it).
 */
export function cachedEnv(base: EnvStore, cache: EnvCache, inTransaction: boolean, afterCommit: (fn: () => void) => void): EnvStore {
  const invalidating =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      cache.invalidate();
      try {
        return await write(...args);
      } finally {
        cache.invalidate();
        afterCommit(() => cache.invalidate());
      }
    };
  return {
    ...base,
    async visible(threadId, userId) {
      const key = `${threadId}\n${userId ?? ""}`;
      if (inTransaction) return cache.peek(key) ?? base.visible(threadId, userId);
      return cache.get(key, () => base.visible(threadId, userId));
    },
    set: invalidating(base.set),
    delete: invalidating(base.delete),
  };
}
