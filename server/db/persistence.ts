import { StaleThreadError } from "@/server/runtime/errors";
import type { Persistence, Stores, TransactionOptions, WorkStore } from "@/server/runtime/ports";
import { databaseKindOf, directPostgresOf, directSqliteOf, transactionClientOf, type Db, type PrismaClient } from "./client";
import { PgTransaction, pgThreadLock, withDirectPg, type DirectPg, type PgCaches } from "./pg-direct";
import { lazyPrisma } from "./pg-direct/lazy-prisma";
import { withDirectSqlite, type DirectSqlite } from "./sqlite-direct";
import type { DatabaseKind } from "./database-url";
import { threadLock } from "./row-lock";
import { isWriteConflict, retryOnWriteConflict } from "./transaction-retry";
import { effectStore } from "./repositories/effects";
import { subagentStore, variableRequestStore } from "./repositories/subagents";
import { envStore, fileStore, type FileStorageConfig } from "./repositories/env-files";
import { eventLog, llmLogStore } from "./repositories/events";
import { messageStore, queueStore } from "./repositories/messages";
import { threadStore } from "./repositories/threads";
import { toolCallRunStore } from "./repositories/tool-call-runs";
import { toolApprovalStore } from "./repositories/tool-approvals";
import { workStore } from "./repositories/work";
import { cachedEnv, envCacheOf } from "./cached-env";
import { chainedLlmLogs } from "./chained-llm-logs";
import type { EnvCache } from "./env-cache";
import { RequestChains } from "./llm-log-chain";

export interface PersistenceOptions {
  /** The work port over another engine (pg-boss on PostgreSQL); the WorkItem table by default. */
  workStore?(db: Db, root: PrismaClient | null): WorkStore;
  /** Where file bytes go (`FILE_STORAGE`): in the database by default. */
  fileStorage?: FileStorageConfig;
}

/**
 * The stores bound to `db` (the client, or one transaction). Each store is built when first used: a transaction body
 * touches two or three of them, and a step runs several transactions.
 */
function stores(
  db: Db,
  root: PrismaClient | null,
  kind: DatabaseKind,
  opts: PersistenceOptions,
  direct: DirectSqlite | null,
  chains: RequestChains,
  envCache: EnvCache,
  /** Runs a callback once this store set's transaction has committed (at once for the client's stores). */
  afterCommit: (fn: () => void) => void,
  /** PostgreSQL: where the per-step statements run (the pool, or this store set's transaction), and parsed states. */
  pg: { sql: DirectPg | PgTransaction; caches: PgCaches } | null = null,
): Stores {
  // In a transaction, reading a thread locks it until commit (PostgreSQL; SQLite serialises transactions anyway).
  const lock = root ? null : pg?.sql instanceof PgTransaction ? pgThreadLock(pg.sql) : threadLock(db, kind);
  const make: { [K in keyof Stores]: () => Stores[K] } = {
    threads: () => threadStore(db, lock),
    messages: () => messageStore(db, lock),
    queue: () => queueStore(db, lock),
    events: () => eventLog(db, kind),
    llmLogs: () => llmLogStore(db),
    work: () => (opts.workStore ? opts.workStore(db, root) : workStore(db, root, kind)),
    env: () => envStore(db),
    files: () => fileStore(db, opts.fileStorage),
    effects: () => effectStore(db),
    subagents: () => subagentStore(db),
    variableRequests: () => variableRequestStore(db),
    toolCallRuns: () => toolCallRunStore(db),
    approvals: () => toolApprovalStore(db),
  };
  const out = {} as Stores;
  for (const key of Object.keys(make) as (keyof Stores)[]) {
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get() {
        // SQLite: the per-step statements run on the adapter's connection directly, in the same transaction.
        // PostgreSQL: the same methods as statements on the pool or on the transaction's connection.
        const raw = direct
          ? withDirectSqlite(direct, key, make[key]() as never, root === null)
          : pg
            ? withDirectPg(pg.sql, pg.caches, key, make[key]())
            : make[key]();
        // LLM request logs are written as deltas against the thread's previous request (llm-log-chain.ts); the env
        // visible to a thread is read through a cache (cached-env.ts).
        const value =
          key === "llmLogs"
            ? chainedLlmLogs(raw as Stores["llmLogs"], chains, afterCommit)
            : key === "env"
              ? cachedEnv(raw as Stores["env"], envCache, root === null, afterCommit)
              : raw;
        Object.defineProperty(out, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return out;
}

/**
 * Lets pending I/O run (incoming requests, SSE writes, LLM stream chunks, socket events) before a transaction starts.
 * On SQLite every query completes synchronously, so without it an activation never gives the event loop back between
 * its LLM calls, and with many activations at once requests and socket events wait for seconds. A loop turn costs
 * tens of microseconds, so it is taken at most once per `YIELD_EVERY_MS`: pending I/O waits at most that long plus one
 * transaction.
 */
const YIELD_EVERY_MS = 1;
let lastYield = 0;
async function yieldToIo(): Promise<void> {
  if (performance.now() - lastYield < YIELD_EVERY_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  lastYield = performance.now();
}

/** The runtime's ports over Prisma: every store, plus transactions that hand out the same stores bound to one tx. */
export function createPersistence(prisma: PrismaClient, opts: PersistenceOptions = {}): Persistence {
  const kind = databaseKindOf(prisma);
  const direct = directSqliteOf(prisma);
  const postgres = directPostgresOf(prisma);
  const chains = new RequestChains();
  const envCache = envCacheOf(prisma);
  // SQLite: every transaction runs on the one connection, so its stores are the same each time (built once). Their
  // bodies run one at a time (the connection's lock), so the running one owns `directAfter`.
  let directAfter: (() => void)[] = [];
  let directTx: Stores | null = null;
  const now = (fn: () => void) => fn();
  /** PostgreSQL: a runtime transaction on one pooled connection, and the stores bound to it (`after`: run at commit). */
  const pgTransaction = (pgDirect: NonNullable<typeof postgres>, after: (() => void)[], optimistic = false) => {
    const t = new PgTransaction(pgDirect.direct, pgDirect.bridge, optimistic);
    const tx = stores(lazyPrisma(() => t.prisma()), null, kind, opts, null, chains, envCache, (f) => after.push(f), { sql: t, caches: pgDirect.caches });
    return { t, tx };
  };
  return {
    ...stores(prisma, prisma, kind, opts, direct, chains, envCache, now, postgres && { sql: postgres.direct, caches: postgres.caches }),
    release(threadId: string) {
      direct?.forgetThread(threadId);
      postgres?.direct.known.forget(threadId);
      postgres?.caches.states.forget(threadId);
      postgres?.caches.history.forget(threadId);
      envCache.forgetThread(threadId);
      chains.forget(threadId);
    },
    // PostgreSQL: a transaction of one write (a request's log row) sent without waiting for its answer.
    ...(postgres
      ? {
          async transactionSent<T>(fn: (tx: Stores) => Promise<T>): Promise<{ value: T; stored: Promise<void> }> {
            const after: (() => void)[] = [];
            const { t, tx } = pgTransaction(postgres, after);
            let value: T;
            try {
              value = await fn(tx);
            } catch (err) {
              await t.rollback(err).catch(() => {});
              chains.clear();
              throw err;
            }
            const { answered } = await t.commitSent().catch((err: unknown) => {
              chains.clear();
              throw err;
            });
            const stored = answered.then(
              () => {
                for (const f of after) f();
              },
              (err: unknown) => {
                chains.clear();
                throw err;
              },
            );
            // The caller's to wait for; never an unhandled rejection meanwhile.
            stored.catch(() => {});
            return { value, stored };
          },
        }
      : {}),
    async transaction<T>(fn: (tx: Stores) => Promise<T>, txOpts?: TransactionOptions): Promise<T> {
      // PostgreSQL's statements wait for I/O anyway: only SQLite's synchronous ones need the turn of the loop.
      if (!postgres) await yieldToIo();
      const after: (() => void)[] = [];
      // A body that must not run twice (`once`) is not run again after a deadlock: it fails stale (see below).
      const tries = txOpts?.once ? 1 : 5;
      let result: T;
      try {
        if (direct?.ready) {
          // SQLite: BEGIN … COMMIT on the connection, the body's per-step statements direct, the rest through the client.
          // Their Prisma queries go through the transaction client: the same connection, inside this transaction.
          directTx ??= stores(transactionClientOf(prisma) ?? prisma, null, kind, opts, direct, chains, envCache, (f) => directAfter.push(f));
          result = await direct.transaction(() => {
            directAfter = after;
            return fn(directTx!);
          });
        } else if (postgres) {
          // PostgreSQL: the body's per-step statements on one pooled connection, its Prisma queries in a Prisma
          // transaction on the same connection, opened only if it makes any (pg-direct/transactions.ts). A deadlock
          // or serialization failure (threads locked in another order) runs the body again.
          result = await retryOnWriteConflict(async () => {
            after.length = 0;
            const { t, tx } = pgTransaction(postgres, after, txOpts?.optimistic === true);
            let value: T;
            try {
              value = await fn(tx);
            } catch (err) {
              await t.rollback(err).catch(() => {});
              throw err;
            }
            await t.commit();
            return value;
          }, tries);
        } else {
          // A deadlock or serialization failure (PostgreSQL, threads locked in another order) runs the body again.
          result = await retryOnWriteConflict(() => {
            after.length = 0;
            return prisma.$transaction((tx) => fn(stores(tx, null, kind, opts, direct, chains, envCache, (f) => after.push(f))), { maxWait: 30_000, timeout: 60_000 });
          }, tries);
        }
      } catch (err) {
        // Nothing of it was committed; the caller gives back what the body took and runs it again.
        if (txOpts?.once && isWriteConflict(err)) throw new StaleThreadError(`the database ended the transaction (${(err as Error).message})`);
        // Whatever it wrote is gone: no remembered request may point at it. An optimistic transaction that found the
        // thread changed (`StaleThreadError`) failed a check: its caller runs it again at once.
        if (!(err instanceof StaleThreadError)) chains.clear();
        throw err;
      }
      for (const f of after) f();
      return result;
    },
  };
}
