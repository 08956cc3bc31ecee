import { setRecent } from "@/server/runtime/bounded-map";
import type { MessageRecord } from "@/server/runtime/ports";

/** A thread's cached history and the `DirectSqlite.stamp()` it was last known current at. */
export interface HeldHistory {
  readonly rows: readonly MessageRecord[];
  readonly stamp: number;
  /** `DirectSqlite.external` when read: after another connection's commit, the rows held may have been edited. */
  readonly external: number;
}

/**
 * A thread's whole history, read before every step, grows by a message or two per step: reading and mapping all of
 * it each time costs O(length) per step. The cache keeps the mapped records of recently stepped threads. While the
 * connection's stamp has not moved, the entry is the history (appends through the store extend it). After a write
 * through Prisma or a rollback on this connection, the reader checks with one indexed count that the rows held are
 * still the thread's (none deleted, none rolled back: the count up to the last seq and the id at that seq match) and
 * reads only the rows after them; this process edits messages only through the store, whose updates and deletes drop
 * the thread's entry (`forget`). After another connection's commit, it reads the whole history again. Records are
 * frozen: callers share them.
 *
 * SQLite only; bounded to the most recently used threads.
 */
export class HistoryCache {
  private readonly entries = new Map<string, HeldHistory>();
  constructor(private readonly maxThreads = 256) {}

  get(threadId: string): HeldHistory | null {
    const e = this.entries.get(threadId);
    if (!e) return null;
    setRecent(this.entries, threadId, e, this.maxThreads);
    return e;
  }

  set(threadId: string, rows: MessageRecord[], stamp: number, external: number): readonly MessageRecord[] {
    for (const r of rows) Object.freeze(r);
    setRecent(this.entries, threadId, { rows, stamp, external }, this.maxThreads);
    return rows;
  }

  /**
   * A message appended through the store at `stamp`: added when the entry is current and the message directly follows
   * its rows, else the entry is dropped (a transaction rolled back later moves the stamp, see `DirectSqlite.rolledBack`).
   */
  appended(record: MessageRecord, stamp: number): void {
    const e = this.entries.get(record.threadId);
    if (!e) return;
    if (e.stamp !== stamp || e.rows.at(-1)?.seq !== record.seq - 1) {
      this.entries.delete(record.threadId);
      return;
    }
    this.entries.set(record.threadId, { rows: [...e.rows, Object.freeze(record)], stamp, external: e.external });
  }

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }

  clear(): void {
    this.entries.clear();
  }
}
