/**
 * Counts the SQL statements the SQLite driver prepares (Prisma's better-sqlite3 adapter prepares every query it
 * runs), grouped by verb and table, so a scenario can report statements per step. Diagnostic only: it wraps
 * `Database.prototype.prepare`/`exec` of better-sqlite3 in this process and changes nothing else.
 */
import { createRequire } from "node:module";

const counts = new Map<string, number>();
let installed = false;

function key(sql: string): string {
  const s = sql.replace(/\s+/g, " ").trim();
  const verb = (/^\w+/.exec(s)?.[0] ?? "?").toUpperCase();
  const table = /(?:FROM|INTO|UPDATE)\s+[`"]?(?:main[`"]?\.[`"]?)?(\w+)/i.exec(s)?.[1] ?? "";
  return table ? `${verb} ${table}` : verb;
}

export function installSqlCounter(): void {
  if (installed) return;
  installed = true;
  const Database = createRequire(import.meta.url)("better-sqlite3") as { prototype: Record<string, (...a: any[]) => any> };
  for (const method of ["prepare", "exec"]) {
    const original = Database.prototype[method]!;
    Database.prototype[method] = function (this: unknown, sql: string, ...rest: unknown[]) {
      const k = key(String(sql));
      counts.set(k, (counts.get(k) ?? 0) + 1);
      return original.call(this, sql, ...rest);
    };
  }
}

export function resetSqlCounts(): void {
  counts.clear();
}

/** Statements counted since the last reset, most frequent first. */
export function sqlCounts(): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1]);
}
