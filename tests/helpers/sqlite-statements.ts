import Database from "better-sqlite3";

const executed: string[] = [];
let installed = false;

/**
 * Counts the SQL statements the SQLite driver runs in this process (prepared or cached), by their text, for tests that
 * check how many statements a read takes: wraps better-sqlite3's Statement run/get/all/iterate once.
 */
export function countSqliteStatements(): { reads(): string[]; reset(): void } {
  if (!installed) {
    installed = true;
    const probe = new Database(":memory:");
    const proto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...a: unknown[]) => unknown>;
    probe.close();
    for (const method of ["all", "get", "run", "iterate"]) {
      const original = proto[method]!;
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        executed.push(this.source);
        return original.apply(this, args);
      };
    }
  }
  return {
    /** The reading statements (SELECT, WITH) since the last reset. */
    reads: () => executed.filter((sql) => /^\s*(SELECT|WITH)/i.test(sql)),
    reset: () => void (executed.length = 0),
  };
}
