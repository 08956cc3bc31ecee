import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlQueryable } from "@prisma/driver-adapter-utils";
import type { Database } from "better-sqlite3";
import type { TransactionLock } from "./transactions";

/**
 * SQLite: no dirty reads. Prisma's adapter and the direct stores share one connection, and a runtime transaction keeps
 * it open across awaits: a query that arrives meanwhile from elsewhere (an API read, another thread's step) would run
 * inside that transaction, see its uncommitted rows, and, for a write, commit or roll back with it.
 *
 * So, while a transaction is open on the connection, a query from outside it:
 * - reads through a second, read-only connection (WAL lets it read the last committed state without blocking the
 *   writer);
 * - writes once the transaction has ended (it waits for the transaction lock).
 * With no transaction open, everything runs on the one connection as before: nothing uncommitted can be seen.
 *
 * A runtime transaction's own queries must not come this way (they would read past their own writes, or wait for
 * themselves): its stores use the transaction client (`transactionAdapterFactory`), which always runs on the connection.
 */
export function routeOutsideTransactions(adapter: SqlDriverAdapter, writer: Database, reader: () => SqlQueryable | null, lock: TransactionLock): SqlQueryable {
  const direct: SqlQueryable = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: adapter.queryRaw.bind(adapter),
    executeRaw: adapter.executeRaw.bind(adapter),
  };
  const outsider = () => {
    // Checked when nesting is (development, tests): a runtime transaction's body reached the client's own queries.
    if (lock.inDirect()) throw new Error(NESTED);
  };
  adapter.queryRaw = async (q: SqlQuery) => {
    if (!writer.inTransaction) return direct.queryRaw(q);
    outsider();
    const r = reader();
    // The writer's prepared statement says whether the query writes (a cached statement: no extra parse).
    if (r && writer.prepare(q.sql).readonly) return r.queryRaw(q);
    return afterTransaction(lock, () => direct.queryRaw(q));
  };
  adapter.executeRaw = async (q: SqlQuery) => {
    if (!writer.inTransaction) return direct.executeRaw(q);
    outsider();
    return afterTransaction(lock, () => direct.executeRaw(q));
  };
  return direct;
}

const NESTED =
  "A query through the Prisma client ran inside a runtime transaction on SQLite: use the transaction's stores (they " +
  "run on the transaction client), not the client's or the persistence's own.";

async function afterTransaction<T>(lock: TransactionLock, fn: () => Promise<T>): Promise<T> {
  const release = await lock.acquire();
  try {
    return await fn();
  } finally {
    release();
  }
}

/**
 * The adapter of the transaction client: the connection itself, unrouted (`direct`, once the main client has opened
 * it). Runtime transactions on the connection (`DirectSqlite.transaction`) run their stores' Prisma queries through it.
 */
export function transactionAdapterFactory(direct: () => { queryable: SqlQueryable; adapter: SqlDriverAdapter } | null): SqlDriverAdapterFactory {
  return {
    provider: "sqlite",
    adapterName: "@prisma/adapter-better-sqlite3",
    connect: async () => {
      const d = direct();
      if (!d) throw new Error("The SQLite connection is not open yet: the transaction client runs only inside a runtime transaction");
      return {
        ...d.queryable,
        executeScript: (script: string) => d.adapter.executeScript(script),
        startTransaction: () => {
          throw new Error("The transaction client runs inside a runtime transaction: it cannot open one of its own");
        },
        // The main client owns the connection.
        dispose: async () => {},
      };
    },
  };
}
