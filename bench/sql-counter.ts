/**
 * Counts the SQL statements the database drivers run, grouped by verb and table, so a scenario can report statements
 * per step. Diagnostic only: it wraps better-sqlite3's `Statement` run/get/all/iterate and `Database.exec`, and
 * node-postgres' `Client.query` (Prisma's adapter, the event bus's NOTIFY connection), in this process, and changes
 * nothing else.
 */
import { createRequire } from "node:module";

const counts = new Map<string, number>();
let installed = false;
/** Socket writes of the PostgreSQL clients (each a round trip's request, however many statements it carries). */
let pgWrites = 0;
const watched = new WeakSet<object>();
/** Called on each socket write of a PostgreSQL client (bench/trace-pg-step.ts marks them in its trace). */
export const pgWriteHook: { on?: (client: object) => void } = {};

type Writable = { _write?: (...a: unknown[]) => unknown; _writev?: (...a: unknown[]) => unknown };

/** Count the writes of a client's socket (one per flush: several statements corked together are one write). */
function watchWrites(client: object): void {
  if (watched.has(client)) return;
  const stream = (client as { connection?: { stream?: Writable } }).connection?.stream;
  if (!stream) return;
  watched.add(client);
  for (const m of ["_write", "_writev"] as const) {
    const original = stream[m];
    if (!original) continue;
    stream[m] = function (this: unknown, ...a: unknown[]) {
      pgWrites++;
      pgWriteHook.on?.(client);
      return original.apply(this, a);
    };
  }
}

function key(sql: string): string {
  const s = sql.replace(/\s+/g, " ").trim();
  const verb = (/^\w+/.exec(s)?.[0] ?? "?").toUpperCase();
  if (/pg_notify/i.test(s)) return "NOTIFY";
  const table = /(?:FROM|INTO|UPDATE)\s+[`"]?(?:(?:main|public)[`"]?\.[`"]?)?(\w+)/i.exec(s)?.[1] ?? "";
  return table ? `${verb} ${table}` : verb;
}

/** Keys by SQL text: the counter must cost next to nothing, or it inflates the CPU time it sits in. */
const keys = new Map<string, string>();

function count(sql: string): void {
  let k = keys.get(sql);
  if (k === undefined) {
    k = key(sql);
    if (keys.size < 10_000) keys.set(sql, k);
  }
  counts.set(k, (counts.get(k) ?? 0) + 1);
}

type Methods = Record<string, (...a: any[]) => any>;

export function installSqlCounter(): void {
  if (installed) return;
  installed = true;
  const Database = createRequire(import.meta.url)("better-sqlite3") as { new (file: string): Methods; prototype: Methods };
  const probe = new Database(":memory:");
  const Statement = Object.getPrototypeOf(probe.prepare!("SELECT 1")) as Methods;
  probe.close!();
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = Statement[method]!;
    Statement[method] = function (this: { source: string }, ...args: unknown[]) {
      count(this.source);
      return original.apply(this, args);
    };
  }
  const exec = Database.prototype.exec!;
  Database.prototype.exec = function (this: unknown, sql: string) {
    count(String(sql));
    return exec.call(this, sql);
  };
  const pg = createRequire(import.meta.url)("pg") as { Client: { prototype: Methods } };
  const query = pg.Client.prototype.query!;
  pg.Client.prototype.query = function (this: unknown, q: unknown, ...rest: unknown[]) {
    const text = typeof q === "string" ? q : (q as { text?: unknown } | null)?.text;
    if (typeof text === "string") count(text);
    watchWrites(this as object);
    return query.call(this, q, ...rest);
  };
}

/** A diagnostic count of its own (a key that is not a statement). */
export function bumpSqlCount(key: string, n = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

export function resetSqlCounts(): void {
  counts.clear();
  pgWrites = 0;
}

/** Socket writes of the PostgreSQL clients since the last reset (round trips, counted where they start). */
export function pgSocketWrites(): number {
  return pgWrites;
}

/** Statements counted since the last reset, most frequent first. */
export function sqlCounts(): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1]);
}
