import type { MessageRecord } from "@/server/runtime/ports";
import { toMessageRecord } from "../repositories/messages";
import { toMessage } from "../sqlite-direct/messages";
import { DirectPg, type Row, type Runner } from "./connection";

interface Held {
  rows: MessageRecord[];
  /** The latest `updatedAt` among the rows (timestamp text, which sorts as it reads). */
  updated: string;
}

/**
 * The whole history of recently stepped threads (read before every step), so that a step maps and checks only the
 * messages stored since the last read. Another process may have written the thread's messages meanwhile (an edit, a
 * delete, a rolled-back append of ours), so each read checks the held rows in the same statement that reads the
 * newer ones: their count, the id at the last held seq and their latest `updatedAt` must be unchanged, else the whole
 * history is read again. Bounded to the most recently used threads; dropped when an activation ends.
 */
export class PgHistoryCache {
  private readonly entries = new Map<string, Held>();
  constructor(private readonly maxThreads = 256) {}

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }

  /** The history held for the thread as last read (unchecked), with the latest `updatedAt` among its rows. */
  held(threadId: string): Held | undefined {
    return this.entries.get(threadId);
  }

  async read(sql: Runner, threadId: string): Promise<readonly MessageRecord[]> {
    const rows = await this.readChecked(sql, threadId);
    const last = rows.at(-1);
    // Read in autocommit: the thread's last seq, as far as this process knows (a transaction's is known at commit).
    if (last && sql instanceof DirectPg) sql.known.setMessageSeq(threadId, last.seq);
    return rows;
  }

  private async readChecked(sql: Runner, threadId: string): Promise<readonly MessageRecord[]> {
    const held = this.entries.get(threadId);
    const last = held?.rows.at(-1);
    if (held && last) {
      const rows = await sql.all<Row>(
        `SELECT "c"."_n", "c"."_last", "c"."_updated", "m".* FROM
           (SELECT COUNT(*) AS "_n", MAX(CASE WHEN "seq" = ? THEN "id" END) AS "_last", MAX("updatedAt") AS "_updated"
              FROM "Message" WHERE "threadId" = ? AND "seq" <= ?) AS "c"
           LEFT JOIN "Message" AS "m" ON "m"."threadId" = ? AND "m"."seq" > ?
         ORDER BY "m"."seq" ASC`,
        last.seq,
        threadId,
        last.seq,
        threadId,
        last.seq,
      );
      const check = rows[0];
      if (check && Number(check._n) === held.rows.length && check._last === last.id && check._updated === held.updated) {
        const newer = rows.filter((r) => r.id !== null);
        if (newer.length === 0) return this.touch(threadId, held).rows;
        return this.store(threadId, [...held.rows, ...newer.map(toRecord)], maxUpdated(held.updated, newer)).rows;
      }
    }
    const rows = await sql.all<Row>(`SELECT * FROM "Message" WHERE "threadId" = ? ORDER BY "seq" ASC`, threadId);
    return this.store(threadId, rows.map(toRecord), maxUpdated("", rows)).rows;
  }

  private touch(threadId: string, held: Held): Held {
    this.entries.delete(threadId);
    this.entries.set(threadId, held);
    return held;
  }

  private store(threadId: string, rows: MessageRecord[], updated: string): Held {
    const held = this.touch(threadId, { rows, updated });
    if (this.entries.size > this.maxThreads) this.entries.delete(this.entries.keys().next().value!);
    return held;
  }
}

const toRecord = (r: Row): MessageRecord => toMessageRecord(toMessage(r));

function maxUpdated(from: string, rows: Row[]): string {
  let max = from;
  for (const r of rows) if ((r.updatedAt as string) > max) max = r.updatedAt as string;
  return max;
}
