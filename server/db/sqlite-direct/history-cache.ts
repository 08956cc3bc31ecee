import { setRecent } from "@/server/runtime/bounded-map";
import type { MessageRecord } from "@/server/runtime/ports";

/**
 * A thread's whole history, read before every step, grows by a message or two per step: reading and mapping all of
 * it each time costs O(length) per step. The cache keeps the mapped records of recently stepped threads and reads
 * only the rows after the last one it holds, after checking with one indexed count that the rows it holds are still
 * the thread's (none deleted, none rolled back: the count up to its last seq and the id at that seq match). Updates
 * and deletes through the store drop the thread's entry (`forget`). Records are frozen: callers share them.
 *
 * SQLite only, where one process owns the database file; bounded to the most recently used threads.
 */
export class HistoryCache {
  private readonly entries = new Map<string, { rows: readonly MessageRecord[] }>();
  constructor(private readonly maxThreads = 64) {}

  get(threadId: string): readonly MessageRecord[] | null {
    const e = this.entries.get(threadId);
    if (!e) return null;
    this.entries.delete(threadId);
    this.entries.set(threadId, e);
    return e.rows;
  }

  set(threadId: string, rows: MessageRecord[]): readonly MessageRecord[] {
    for (const r of rows) Object.freeze(r);
    setRecent(this.entries, threadId, { rows }, this.maxThreads);
    return rows;
  }

  /** A message appended through the store: added when it directly follows the rows held (a transaction rolled back
   * later clears the cache, see `DirectSqlite.rolledBack`). */
  appended(record: MessageRecord): void {
    const e = this.entries.get(record.threadId);
    if (!e) return;
    if (e.rows.at(-1)?.seq !== record.seq - 1) {
      this.entries.delete(record.threadId);
      return;
    }
    e.rows = [...e.rows, Object.freeze(record)];
  }

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }

  clear(): void {
    this.entries.clear();
  }
}
