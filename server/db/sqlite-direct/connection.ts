import Database, { type Database as Connection, type Statement } from "better-sqlite3";
import type { SubagentRecord } from "@/server/runtime/ports";
import { EnvCache } from "../env-cache";
import { HistoryCache } from "./history-cache";
import { StampedCache } from "./stamped-cache";
import { StateCache } from "./state-cache";
import { TransactionLock, directTransaction } from "./transactions";

/**
 * Writes by the connections of this process (bumped by `DirectSqlite.wrote`): a commit by another connection of the
 * same process makes a check taken earlier in the event loop's turn stale (see `stamp`).
 */
let processWrites = 0;

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
  /** The env values visible to recently stepped threads (../env-cache.ts, used by ../cached-env.ts). */
  readonly env = new EnvCache();
  /** Thread rows, subagent lists and pending queues of recently stepped threads (see `stamp`). */
  readonly rows = new StampedCache<Record<string, unknown>>(256);
  readonly children = new StampedCache<SubagentRecord[]>(256);
  readonly queues = new StampedCache<Record<string, unknown>[]>(256);
  private statements = new Map<string, Statement>();
  private db: Connection | null = null;
  private versionStatement: Statement | null = null;
  private seenVersion: unknown = undefined;
  private changes = 0;
  private externalChanges = 0;
  /** Transactions begun on the connection, and the one the version was last checked in (see `stamp`). */
  private transactions = 0;
  private checkedIn = -1;
  private checkedThisTurn = false;
  /** `processWrites` as of this connection's last check, kept current through its own writes (see `wrote`). */
  private seenWrites = -1;

  /** `checkNesting`: see `TransactionLock` (on in development and tests, off in production). */
  constructor(checkNesting = true) {
    this.lock = new TransactionLock(checkNesting);
  }

  /** Called with each connection the adapter opens. */
  attach(db: Connection): void {
    this.db = db;
    this.statements = new Map();
    this.versionStatement = null;
    this.history.clear();
    this.states.clear();
    this.env.clear();
    this.changed();
  }

  /**
   * A number that changes whenever the database may have changed other than through the direct stores' own writes:
   * a write Prisma ran on this connection (`changed`, called by the statement cache), a rollback, or a commit by
   * another connection (SQLite's `PRAGMA data_version`, one cheap statement). An entry of the stamped caches is
   * current while the stamp it was taken at is; the direct stores keep their own entries current as they write.
   */
  stamp(current = false): number {
    // Inside a transaction the connection reads one snapshot: once checked there, the version cannot move. Outside
    // one, a check holds until the event loop's next turn: the reads between two awaits of a step (no I/O between
    // them) are taken as of that check, a few microseconds earlier, rather than each paying its own (~5 µs). Unless
    // another connection of this process wrote since: its commit happened before this read began, and a read that
    // follows it in the same process (an API request that stopped a thread, then the step's check) must see it.
    const inTransaction = this.db?.inTransaction === true;
    // `current`: a read that decides what the runtime does next (the thread row: is a stop or a terminate pending?)
    // checks every time outside a transaction, so a commit by another process made before it began is seen too.
    if (inTransaction ? this.checkedIn === this.transactions : !current && this.checkedThisTurn && this.seenWrites === processWrites) {
      return this.changes;
    }
    if (!this.versionStatement) this.versionStatement = this.prepare("PRAGMA data_version").pluck();
    this.seenWrites = processWrites;
    const version = this.versionStatement.get();
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.changes++;
      this.externalChanges++;
    }
    if (inTransaction) this.checkedIn = this.transactions;
    else if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      setImmediate(this.turnEnded);
    }
    return this.changes;
  }

  /**
   * A statement that may have changed the database ran on this connection, or a transaction on it committed: the
   * other connections of the process check the version again on their next read. This connection's own check stays
   * good (its writes never move its own `data_version`, and the direct stores keep their entries current).
   */
  wrote(): void {
    if (this.seenWrites === processWrites) this.seenWrites = ++processWrites;
    else processWrites++;
  }

  private readonly turnEnded = () => {
    this.checkedThisTurn = false;
  };

  /** A transaction began on the connection (direct or Prisma's): its snapshot may be newer than the last check. */
  began(): void {
    this.transactions++;
  }

  /** How many times `stamp` found a commit by another connection (which may have edited any row in place). */
  get external(): number {
    return this.externalChanges;
  }

  /** The database changed in a way the caches cannot follow (a Prisma write, a rollback): every entry is stale. */
  changed(): void {
    this.changes++;
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
    const stmt = this.prepare(sql);
    try {
      return stmt.get(...args) as T | undefined;
    } finally {
      if (!stmt.readonly) this.wrote();
    }
  }

  all<T>(sql: string, ...args: unknown[]): T[] {
    const stmt = this.prepare(sql);
    try {
      return stmt.all(...args) as T[];
    } finally {
      if (!stmt.readonly) this.wrote();
    }
  }

  /**
   * Drop what the caches hold for a thread (its activation ended: idle threads do not stay resident). Its env entries
   * go with `Persistence.release`, which drops them on either database.
   */
  forgetThread(threadId: string): void {
    this.history.forget(threadId);
    this.states.forget(threadId);
    this.rows.delete(threadId);
    this.children.delete(threadId);
    this.queues.delete(threadId);
  }

  /** A transaction on the connection was rolled back: what the caches read inside it may be gone. */
  rolledBack(): void {
    this.env.invalidate();
    this.history.clear();
    this.changed();
  }

  /** A statement that returns no rows (a write, or BEGIN / COMMIT / ROLLBACK: SQLite counts those read-only). */
  run(sql: string, ...args: unknown[]): number {
    const stmt = this.prepare(sql);
    try {
      return stmt.run(...args).changes;
    } finally {
      if (!stmt.readonly || sql === "COMMIT") this.wrote();
    }
  }

  /** Run `fn` in a transaction on the connection (see transactions.ts). */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return directTransaction(this, this.lock, fn);
  }
}
