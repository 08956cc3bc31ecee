import { AsyncLocalStorage } from "node:async_hooks";
import type { SqlDriverAdapter, Transaction } from "@prisma/driver-adapter-utils";
import type { DirectSqlite } from "./connection";

/**
 * One transaction at a time on the connection, whoever opens it: Prisma's interactive transactions (through the
 * adapter's `startTransaction`, wrapped by `shareTransactionLock`) and the runtime's direct ones (`DirectSqlite`'s
 * `transaction`). A direct transaction costs a BEGIN and a COMMIT; Prisma's costs its transaction bookkeeping on top,
 * several times per step.
 */
export class TransactionLock {
  private tail: Promise<void> = Promise.resolve();
  /**
   * Marks the async context of a direct transaction's body, when nesting is checked. Any AsyncLocalStorage turns on
   * Node's promise hooks for the whole process (Node 20), which costs every promise: about 0.2 ms of CPU per step in
   * `npm run bench`. So production leaves it off: there, a Prisma transaction asked for inside a direct one fails
   * after Prisma's `maxWait` (which rolls back the runtime's transaction) instead of at once.
   */
  private readonly marker: AsyncLocalStorage<true> | null;

  constructor(checkNesting = true) {
    this.marker = checkNesting ? new AsyncLocalStorage<true>() : null;
  }

  /** Whether the caller runs inside a direct transaction's body (always false when nesting is not checked). */
  inDirect(): boolean {
    return this.marker?.getStore() === true;
  }

  /** Run a direct transaction's body, marked when nesting is checked. */
  runDirect<T>(fn: () => Promise<T>): Promise<T> {
    return this.marker ? this.marker.run(true, fn) : fn();
  }

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }
}

/**
 * Make the adapter's transactions take `lock` first and give it back when they commit or roll back. Prisma asking for
 * a transaction inside a direct one (an operation it runs as several statements) would wait for itself: when nesting
 * is checked that fails at once with an error that says so, rather than waiting for Prisma's `maxWait`.
 */
export function shareTransactionLock(
  adapter: SqlDriverAdapter,
  lock: TransactionLock,
  onRollback: () => void = () => {},
  onBegin: () => void = () => {},
  onCommit: () => void = () => {},
): void {
  const start = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => {
    if (lock.inDirect()) {
      throw new Error(
        "A Prisma operation asked for its own transaction inside a runtime transaction on SQLite (one connection). " +
          "Run it through the transaction's stores as single statements, or outside the transaction.",
      );
    }
    const release = await lock.acquire();
    let tx: Transaction;
    try {
      tx = await start(isolationLevel);
    } catch (err) {
      release();
      throw err;
    }
    onBegin();
    const commit = tx.commit.bind(tx);
    const rollback = tx.rollback.bind(tx);
    tx.commit = () =>
      commit().finally(() => {
        onCommit();
        release();
      });
    tx.rollback = () =>
      rollback().finally(() => {
        onRollback();
        release();
      });
    return tx;
  };
}

/**
 * BEGIN IMMEDIATE … COMMIT on the connection directly, under the shared lock; ROLLBACK when `fn` throws. IMMEDIATE
 * takes the write lock at BEGIN, where another connection's lock (the runtime thread's, RUNTIME_THREAD=1, or another
 * process's) is waited for under the busy timeout; a deferred BEGIN would take it at the first write, and fail at once
 * with SQLITE_BUSY when another connection committed since the transaction's first read (a stale snapshot cannot be
 * upgraded). With one connection it costs the same.
 */
export async function directTransaction<T>(sql: DirectSqlite, lock: TransactionLock, fn: () => Promise<T>): Promise<T> {
  const release = await lock.acquire();
  try {
    sql.run("BEGIN IMMEDIATE");
    sql.began();
    let value: T;
    try {
      value = await lock.runDirect(fn);
    } catch (err) {
      if (sql.inTransaction) sql.run("ROLLBACK");
      sql.rolledBack();
      throw err;
    }
    try {
      sql.run("COMMIT");
    } catch (err) {
      // A failed COMMIT can leave the transaction open: end it, and nothing read or written in it is current.
      if (sql.inTransaction) sql.run("ROLLBACK");
      sql.rolledBack();
      throw err;
    }
    return value;
  } finally {
    release();
  }
}
