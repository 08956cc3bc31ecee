import type { MessageRecord } from "@/server/runtime/ports";
import { toMessageRecord } from "../repositories/messages";
import { toMessage } from "../sqlite-direct/messages";
import type { DirectPg, Row, Runner } from "./connection";

export interface HeldHistory {
  rows: MessageRecord[];
  /** The latest `updatedAt` among the rows (timestamp text, which sorts as it reads). */
  updated: string;
  /**
   * The thread row (its version and event counter) with which `rows` are the thread's messages up to the last held
   * seq; undefined when not known. Any edit or delete of a message bumps the row's version (a trigger, migration
   * 20261128110000), so while the row is still this one the held rows need no check (see `readChecked`).
   */
  clean?: RowStamp;
}

/** A thread row's version and event counter: every write of the row changes one of them. */
export interface RowStamp {
  version: number;
  eventSeq: number;
}

/**
 * The whole history of recently stepped threads (read before every step), so that a step maps and checks only the
 * messages stored since the last read. Another process may have written the thread's messages meanwhile (an edit, a
 * delete), so each read checks the held rows in the same statement that reads the newer ones:
 * - while the thread row is the one the held rows were last found with (`HeldHistory.clean`: its version and event counter,
 *   which any edit or delete of a message changes), at the cost of one row read;
 * - else, their count, the id at the last held seq and their latest `updatedAt` must be unchanged, which reads every
 *   held row; else the whole history is read again.
 * `clean` is taken from a read outside a transaction (the row and the messages in one snapshot), and moved on by this
 * process's own commits that changed the row from it without touching a stored message (`advance`, `eventsAppended`).
 * Bounded to the most recently used threads; dropped when an activation ends.
 */
export class PgHistoryCache {
  private readonly entries = new Map<string, HeldHistory>();
  /** How reads went: held rows taken on the row's stamp, checked row by row, read whole. */
  readonly stats = { stamped: 0, checked: 0, whole: 0 };
  constructor(private readonly maxThreads = 256) {}

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }

  /** The history held for the thread as last read (unchecked), with the latest `updatedAt` among its rows. */
  held(threadId: string): HeldHistory | undefined {
    return this.entries.get(threadId);
  }

  /**
   * A transaction of this process committed a change of the thread row from `from` to `to`, and wrote no stored
   * message but new ones (which a later read finds after the last held seq): the held rows are the thread's with
   * `to` as they were with `from`.
   */
  advance(threadId: string, from: RowStamp, to: RowStamp): void {
    const held = this.entries.get(threadId);
    if (!held?.clean) return;
    held.clean = sameStamp(held.clean, from) ? { version: to.version, eventSeq: to.eventSeq } : undefined;
  }

  /** Events `first`…`last` were appended to the thread by this process, its row not otherwise written. */
  eventsAppended(threadId: string, first: number, last: number): void {
    const held = this.entries.get(threadId);
    if (!held?.clean) return;
    held.clean = held.clean.eventSeq === first - 1 ? { version: held.clean.version, eventSeq: last } : undefined;
  }

  async read(sql: Runner, threadId: string): Promise<readonly MessageRecord[]> {
    const rows = await this.readChecked(sql, threadId);
    const last = rows.at(-1);
    // Read in autocommit: the thread's last seq, as far as this process knows (a transaction's is known at commit).
    if (last && sql.autocommit) (sql as DirectPg).known.setMessageSeq(threadId, last.seq);
    return rows;
  }

  private async readChecked(sql: Runner, threadId: string): Promise<readonly MessageRecord[]> {
    const held = this.entries.get(threadId);
    const last = held?.rows.at(-1);
    if (held && last) {
      const c = held.clean;
      const rows = await sql.all<Row>(CHECK_AND_NEWER, threadId, last.seq, threadId, last.seq, c?.version ?? -1, c?.eventSeq ?? -1, threadId, last.seq);
      const check = rows[0];
      const stamp = check ? rowStamp(check) : undefined;
      const stamped = c !== undefined && stamp !== undefined && sameStamp(c, stamp);
      if (stamped || (check && Number(check._n) === held.rows.length && check._last === last.id && check._updated === held.updated)) {
        this.stats[stamped ? "stamped" : "checked"]++;
        const newer = rows.filter((r) => r.id !== null);
        // Inside a transaction the rows may be its own, not yet committed: only a read in autocommit vouches for them.
        const clean = sql.autocommit ? stamp : newer.length === 0 ? held.clean : undefined;
        if (newer.length === 0) return this.touch(threadId, { ...held, clean }).rows;
        return this.store(threadId, { rows: [...held.rows, ...newer.map(toRecord)], updated: maxUpdated(held.updated, newer), clean }).rows;
      }
    }
    this.stats.whole++;
    const rows = await sql.all<Row>(WHOLE, threadId, threadId);
    const messages = rows.filter((r) => r.id !== null);
    const stamp = rows[0] ? rowStamp(rows[0]) : undefined;
    return this.store(threadId, { rows: messages.map(toRecord), updated: maxUpdated("", messages), clean: sql.autocommit ? stamp : undefined }).rows;
  }

  private touch(threadId: string, held: HeldHistory): HeldHistory {
    this.entries.delete(threadId);
    this.entries.set(threadId, held);
    return held;
  }

  private store(threadId: string, held: HeldHistory): HeldHistory {
    this.touch(threadId, held);
    if (this.entries.size > this.maxThreads) this.entries.delete(this.entries.keys().next().value!);
    return held;
  }
}

/**
 * The thread row's stamp, the held rows' check (skipped while the row's stamp is the one given: a one-time filter,
 * the messages not read) and the messages after the last held seq, in one snapshot. Arguments: thread id, last held
 * seq, thread id, last held seq, the held stamp (version, event counter; -1 for none), thread id, last held seq.
 */
const CHECK_AND_NEWER = `WITH "t" AS (SELECT "version", "eventSeq" FROM "Thread" WHERE "id" = ?)
  SELECT "c".*, "m".* FROM
    (SELECT (SELECT "version" FROM "t") AS "_v", (SELECT "eventSeq" FROM "t") AS "_e", "a".* FROM
       (SELECT COUNT(*) AS "_n", MAX(CASE WHEN "seq" = ? THEN "id" END) AS "_last", MAX("updatedAt") AS "_updated"
          FROM "Message" WHERE "threadId" = ? AND "seq" <= ?
           AND NOT EXISTS (SELECT 1 FROM "t" WHERE "version" = ?::int AND "eventSeq" = ?::int)) AS "a") AS "c"
    LEFT JOIN "Message" AS "m" ON "m"."threadId" = ? AND "m"."seq" > ?
  ORDER BY "m"."seq" ASC`;

/** The thread row's stamp and all its messages, in one snapshot (one row with no message when it has none). */
const WHOLE = `SELECT "t"."version" AS "_v", "t"."eventSeq" AS "_e", "m".* FROM "Thread" AS "t"
  LEFT JOIN "Message" AS "m" ON "m"."threadId" = ? WHERE "t"."id" = ? ORDER BY "m"."seq" ASC`;

/** A `Thread` row's stamp. */
export const stampOf = (row: Row): RowStamp => ({ version: Number(row.version), eventSeq: Number(row.eventSeq) });

/** Whether the held rows were found with this `Thread` row: they are then its history, with no check of them. */
export const stampedWith = (held: HeldHistory, row: Row): boolean => held.clean !== undefined && sameStamp(held.clean, stampOf(row));

const rowStamp = (r: Row): RowStamp | undefined => (r._v === null || r._v === undefined ? undefined : { version: Number(r._v), eventSeq: Number(r._e) });
const sameStamp = (a: RowStamp, b: RowStamp) => a.version === b.version && a.eventSeq === b.eventSeq;

const toRecord = (r: Row): MessageRecord => toMessageRecord(toMessage(r));

function maxUpdated(from: string, rows: Row[]): string {
  let max = from;
  for (const r of rows) if ((r.updatedAt as string) > max) max = r.updatedAt as string;
  return max;
}
