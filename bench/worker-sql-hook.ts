/**
 * Loaded into each worker process of bench/worker-scale.ts (`--import`): counts the process's SQL statements
 * (sql-counter.ts), plus a few diagnostics under keys of their own: `~notified <channel>` (NOTIFYs received),
 * `~fetch empty` / `~fetch jobs` (pg-boss fetches that found nothing, jobs fetched). SIGUSR2 resets the counts
 * (after the warm-up), SIGUSR1 writes them as JSON to `$BENCH_SQL_COUNTS.<pid>`.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { bumpSqlCount, installSqlCounter, resetSqlCounts, sqlCounts } from "./sql-counter";

installSqlCounter();
type Methods = Record<string, (...a: any[]) => any>;
const pg = createRequire(import.meta.url)("pg") as { Client: { prototype: Methods } };
const emit = pg.Client.prototype.emit!;
pg.Client.prototype.emit = function (this: unknown, event: string, ...args: any[]) {
  if (event === "notification") bumpSqlCount(`~notified ${String(args[0]?.channel)}`);
  return emit.call(this, event, ...args);
};
const tally = (r: { rowCount?: number | null } | undefined) => {
  const n = r?.rowCount ?? 0;
  if (n === 0) bumpSqlCount("~fetch empty");
  else bumpSqlCount("~fetch jobs", n);
};
const query = pg.Client.prototype.query!;
pg.Client.prototype.query = function (this: unknown, q: unknown, ...rest: any[]) {
  if (typeof q !== "string" || !q.includes("FOR UPDATE SKIP LOCKED")) return query.call(this, q, ...rest);
  // pg-pool passes a callback; a caller without one gets a promise.
  const cb = rest.findIndex((a) => typeof a === "function");
  if (cb >= 0) {
    const done = rest[cb];
    rest[cb] = (err: unknown, r: { rowCount?: number | null }) => {
      if (!err) tally(r);
      return done(err, r);
    };
    return query.call(this, q, ...rest);
  }
  const result = query.call(this, q, ...rest);
  void result?.then?.(tally, () => {});
  return result;
};
process.on("SIGUSR2", () => resetSqlCounts());
process.on("SIGUSR1", () => {
  const file = process.env.BENCH_SQL_COUNTS;
  if (file) fs.writeFileSync(`${file}.${process.pid}`, JSON.stringify(sqlCounts()));
});
