import pg from "pg";
import type { MessageRecord } from "@/server/runtime/ports";
import { PgHistoryCache, type HeldHistory } from "./history";
import { KnownThreads } from "./known-threads";
import { ReadBatcher } from "./read-batch";
import { PgTransaction } from "./transactions";

export type Row = Record<string, unknown>;
/** Where a statement runs: the pool (autocommit) or one runtime transaction's connection. */
export type Runner = DirectPg | PgTransaction;

/**
 * The runtime's per-step statements on node-postgres directly, on the pool Prisma's adapter also uses.
 *
 * Through Prisma's query builder each statement of a step costs 0.3–0.7 ms of CPU (query compilation, parameter and
 * row mapping) for a statement PostgreSQL runs in tens of microseconds. The hot store methods (see `index.ts`) run
 * named (prepared) statements here instead, in the same transaction as the Prisma queries of the same store set
 * (transactions.ts), with the same column formats as the SQLite direct stores: each row is mapped by the same
 * functions (sqlite-direct/*): timestamps and JSON columns come back as text, BigInt columns as decimal text.
 * The connections run in pipeline mode: a transaction sends its BEGIN with its first statement, and its writes whose
 * results nobody waits for go out with the next statement or the COMMIT, one round trip for several statements.
 */
export class DirectPg {
  private readonly names = new Map<string, { name: string; text: string }>();
  /** Reads asked for in the same tick share one connection and one round trip (read-batch.ts). */
  readonly reads: ReadBatcher;
  /** What this process last saw of recently stepped threads (known-threads.ts). */
  readonly known = new KnownThreads();
  /** The histories of recently stepped threads (history.ts). */
  readonly history = new PgHistoryCache();
  /** Statements here run in autocommit (a `PgTransaction` runs them in its transaction). */
  readonly autocommit = true;

  constructor(readonly pool: pg.Pool) {
    this.reads = new ReadBatcher(pool);
  }

  /** Our SQL is written with `?` placeholders (shared with the SQLite stores); PostgreSQL numbers them. */
  statement(sql: string): { name: string; text: string } {
    let s = this.names.get(sql);
    if (!s) {
      let n = 0;
      s = { name: `studio_${this.names.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      // The texts are few (one per batch size or column set); the bound only guards against a runaway caller.
      if (this.names.size < 2000) this.names.set(sql, s);
    }
    return s;
  }

  /** The config of one query: named (prepared once per connection), text columns kept as text. */
  config(sql: string, args: unknown[]): pg.QueryConfig {
    const { name, text } = this.statement(sql);
    return { name, text, values: args.map(param), types: TYPES };
  }

  async all<T = Row>(sql: string, ...args: unknown[]): Promise<T[]> {
    return pgGuarded(async () => (await this.reads.query(this.config(sql, args))).rows as T[]);
  }

  async get<T = Row>(sql: string, ...args: unknown[]): Promise<T | undefined> {
    return (await this.all<T>(sql, ...args))[0];
  }

  async run(sql: string, ...args: unknown[]): Promise<number> {
    return pgGuarded(async () => (await this.pool.query(this.config(sql, args))).rowCount ?? 0);
  }

  /** Outside a transaction a write is sent and awaited like any other statement (autocommit). */
  async write(sql: string, ...args: unknown[]): Promise<void> {
    await this.run(sql, ...args);
  }

  /** Outside a transaction: sent and awaited, its rows handed to `then`. */
  async writeThen(sql: string, args: unknown[], then: (rows: Row[]) => void): Promise<void> {
    then(await this.all(sql, ...args));
  }

  /** Appended in autocommit: the thread's last seq, as far as this process knows. */
  noteAppended(record: MessageRecord): void {
    this.known.setMessageSeq(record.threadId, record.seq);
  }

  /** Outside a transaction a message's seq is read by its INSERT. */
  nextMessageSeq(_threadId: string): { after: number; seq: number } | undefined {
    return undefined;
  }

  eventsReserved(threadId: string, first: number, last: number): void {
    this.known.eventsAppended(threadId, first, last);
    this.history.eventsAppended(threadId, first, last);
  }

  /** Outside a transaction a history is read. */
  async checkedHistory(_threadId: string, _held: HeldHistory): Promise<MessageRecord[] | undefined> {
    return undefined;
  }

  appendedHere(_messageId: string): boolean {
    return false;
  }

  /** Autocommit: there is nothing to lock beyond the statement itself (undefined: not locked here). */
  async lock(_threadId: string): Promise<Row | null | undefined> {
    return undefined;
  }

  async lockQueued(_threadId: string): Promise<void> {}

  /** Nothing is locked outside a transaction. */
  lockedRow(_threadId: string): Promise<Row | null> | undefined {
    return undefined;
  }

  /** Nothing is held outside a transaction; a row written is what this process knows of it. */
  wrote(threadId: string, row: Row): void {
    this.known.setRow(threadId, row);
  }

  patchLocked(_threadId: string, _patch: Row): void {}
}

/** Booleans go as `true`/`false` (SQLite's 0/1 are bound by the shared SQL too: PostgreSQL accepts both as text). */
const param = (v: unknown): unknown => (typeof v === "bigint" ? v.toString() : v);

const identity = (v: string) => v;
/** Timestamps (without and with time zone), json and jsonb as text: the formats the shared row mappers read. */
const TEXT_OIDS = new Set([1114, 1184, 114, 3802]);
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    TEXT_OIDS.has(oid) ? identity : pg.types.getTypeParser(oid, (format ?? "text") as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

/** A unique violation as Prisma reports it (P2002 with the fields), so the API maps it the same way (409). */
export function asPrismaLikePgError(err: unknown): unknown {
  const e = err as { code?: unknown; detail?: unknown; message?: unknown };
  if (e?.code !== "23505") return err;
  const fields = /^Key \(([^)]*)\)/.exec(String(e.detail ?? ""))?.[1]?.split(",").map((f) => f.trim().replace(/"/g, "")) ?? [];
  return Object.assign(new Error(String(e.message ?? "unique constraint failed")), { code: "P2002", meta: { target: fields }, cause: err });
}

export async function pgGuarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asPrismaLikePgError(err);
  }
}
