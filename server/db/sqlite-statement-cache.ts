import type { Database, Statement } from "better-sqlite3";

/**
 * Prisma's better-sqlite3 adapter prepares every statement it runs (`client.prepare(sql).bind(args)`), and SQLite's
 * prepare (parse + plan) costs more than running a small statement. Prisma sends the same few hundred SQL texts over
 * and over, so the connection keeps its prepared statements in a bounded LRU map keyed by SQL text.
 *
 * A better-sqlite3 statement can be bound only once, so a cached statement's `bind(args)` returns a view that passes
 * `args` to each call instead (`run`, `all`, `get`, `raw().all()`: what the adapter uses). Results are the same: the
 * statement, the parameters and the connection are.
 */
export function cacheStatements(db: Database, max = 500): void {
  const prepare = db.prepare.bind(db) as (sql: string) => Statement;
  const cache = new Map<string, Statement>();
  db.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) {
      // Most recently used last: the first key is the one to evict.
      cache.delete(sql);
      cache.set(sql, stmt);
      return stmt;
    }
    stmt = prepare(sql);
    const own = stmt;
    own.bind = ((...args: unknown[]) => boundView(own, args)) as Statement["bind"];
    cache.set(sql, own);
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return own;
  }) as Database["prepare"];
}

/** The parts of a bound statement the adapter calls, with the parameters passed on each call. */
function boundView(stmt: Statement, args: unknown[]) {
  return {
    get reader() {
      return stmt.reader;
    },
    columns: () => stmt.columns(),
    run: () => stmt.run(...args),
    get: () => stmt.raw(false).get(...args),
    all: () => stmt.raw(false).all(...args),
    raw: (on = true) => ({
      all: () => stmt.raw(on).all(...args),
      get: () => stmt.raw(on).get(...args),
    }),
  };
}
