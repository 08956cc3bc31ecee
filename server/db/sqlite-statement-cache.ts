import type { Database, Statement } from "better-sqlite3";

/**
 * Prisma's better-sqlite3 adapter prepares every statement it runs (`client.prepare(sql).bind(args)`), and SQLite's
 * prepare (parse + plan) costs more than running a small statement. Prisma sends the same few hundred SQL texts over
 * and over, so the connection keeps its prepared statements in a bounded LRU map keyed by SQL text.
 *
 * A better-sqlite3 statement can be bound only once, so a cached statement's `bind(args)` returns a view that passes
 * `args` to each call instead (`run`, `all`, `get`, `raw().all()`: what the adapter uses). Results are the same: the
 * statement, the parameters and the connection are.
 *
 * `onWrite` is called after each statement that can change the database (not `readonly`), and after each script:
 * the direct stores' caches learn that Prisma wrote (see `DirectSqlite.stamp`).
 */
export function cacheStatements(db: Database, max = 500, onWrite: () => void = () => {}): void {
  const prepare = db.prepare.bind(db) as (sql: string) => Statement;
  const cache = new Map<string, Statement>();
  db.prepare = ((text: string) => {
    // Prisma's transactions begin deferred: made IMMEDIATE for the reason given at `directTransaction`.
    const sql = text === "BEGIN" && !db.readonly ? "BEGIN IMMEDIATE" : text;
    let stmt = cache.get(sql);
    if (stmt) {
      // Most recently used last: the first key is the one to evict.
      cache.delete(sql);
      cache.set(sql, stmt);
      return stmt;
    }
    stmt = prepare(sql);
    const own = stmt;
    const after = own.readonly ? null : onWrite;
    own.bind = ((...args: unknown[]) => boundView(own, args, after)) as Statement["bind"];
    cache.set(sql, own);
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return own;
  }) as Database["prepare"];
  const exec = db.exec.bind(db);
  db.exec = ((script: string) => {
    try {
      return exec(script);
    } finally {
      onWrite();
    }
  }) as Database["exec"];
}

/** `fn`'s result, then `after` (also when `fn` throws: a failed write may have changed something before it failed). */
function then<T>(fn: () => T, after: (() => void) | null): T {
  if (!after) return fn();
  try {
    return fn();
  } finally {
    after();
  }
}

/** The parts of a bound statement the adapter calls, with the parameters passed on each call. */
function boundView(stmt: Statement, args: unknown[], after: (() => void) | null) {
  return {
    get reader() {
      return stmt.reader;
    },
    columns: () => stmt.columns(),
    run: () => then(() => stmt.run(...args), after),
    get: () => then(() => stmt.raw(false).get(...args), after),
    all: () => then(() => stmt.raw(false).all(...args), after),
    raw: (on = true) => ({
      all: () => then(() => stmt.raw(on).all(...args), after),
      get: () => then(() => stmt.raw(on).get(...args), after),
    }),
  };
}
