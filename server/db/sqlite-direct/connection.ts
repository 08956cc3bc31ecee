import Database, { type Database as Connection, type Statement } from "better-sqlite3";
import { EnvCache } from "./env-cache";
import { HistoryCache } from "./history-cache";
import { StateCache } from "./state-cache";
import { TransactionLock, directTransaction } from "./transactions";

/**
 * Prisma's own better-sqlite3 connection, reached directly for the runtime's per-step reads and writes.
 *
 * Every statement of a step through the query builder costs 0.3–0.7 ms of CPU (query compilation, parameter and row
 * mapping) for a statement SQLite itself runs in 10–50 µs, and a step runs about thirty. The hot store methods (see
 * `index.ts`) therefore run prepared statements on the very connection Prisma's adapter opened: the same database,
 * the same transaction (Prisma's SQLite adapter has one connection and runs a transaction's statements on it, and
 * ours run synchronously inside the caller's `transaction` callback), the same column formats (see `columns.ts`).
 * The schema, the migrations and every other query stay Prisma's.
 */
export class DirectSqlite {
  /** Shared by Prisma's transactions and the runtime's direct ones (transactions.ts). */
  readonly lock: TransactionLock;
  /** Recently read thread histories (history-cache.ts). */
  readonly history = new HistoryCache();
  /** The parsed state of recently read threads (state-cache.ts). */
  readonly states = new StateCache();
  /** The env values visible to recently stepped threads (env-cache.ts). */
  readonly env = new EnvCache();
  private statements = new Map<string, Statement>();
  private db: Connection | null = null;

  /** `checkNesting`: see `TransactionLock` (on in development and tests, off in production). */
  constructor(checkNesting = true) {
    this.lock = new TransactionLock(checkNesting);
  }

  /** Called with each connection the adapter opens. */
  attach(db: Connection): void {
    this.db = db;
    this.statements = new Map();
    this.history.clear();
    this.states.clear();
    this.env.clear();
  }

  /** Whether a transaction is open on the connection. */
  get inTransaction(): boolean {
    return this.db?.inTransaction ?? false;
  }

  /** Whether the adapter has opened its connection (Prisma connects on its first query). */
  get ready(): boolean {
    return this.db !== null && this.db.open;
  }

  /** A prepared statement, kept by SQL text; integers come back as numbers (µs times fit in 2^53). */
  prepare(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      if (!this.db) throw new Error("DirectSqlite: the connection is not open yet");
      // The prototype's prepare: the connection's own is wrapped by Prisma's statement cache (sqlite-statement-cache.ts).
      stmt = (Database.prototype.prepare as (this: Connection, s: string) => Statement).call(this.db, sql);
      if (stmt.reader) stmt.safeIntegers(false);
      this.statements.set(sql, stmt);
      // The texts are few (one per batch size or column set); the bound only guards against a runaway caller.
      if (this.statements.size > 500) this.statements.delete(this.statements.keys().next().value!);
    }
    return stmt;
  }

  get<T>(sql: string, ...args: unknown[]): T | undefined {
    return this.prepare(sql).get(...args) as T | undefined;
  }

  all<T>(sql: string, ...args: unknown[]): T[] {
    return this.prepare(sql).all(...args) as T[];
  }

  /** Drop what the caches hold for a thread (its activation ended: idle threads do not stay resident). */
  forgetThread(threadId: string): void {
    this.history.forget(threadId);
    this.states.forget(threadId);
    this.env.forgetThread(threadId);
  }

  /** A transaction on the connection was rolled back: what the caches read inside it may be gone. */
  rolledBack(): void {
    this.env.invalidate();
    this.history.clear();
  }

  run(sql: string, ...args: unknown[]): number {
    return this.prepare(sql).run(...args).changes;
  }

  /** Run `fn` in a transaction on the connection (see transactions.ts). */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return directTransaction(this, this.lock, fn);
  }
}
