import type { MessageRecord } from "@/server/runtime/ports";
import type { Row } from "./connection";
import { stampOf, type PgHistoryCache, type RowStamp } from "./history";
import type { KnownThreads } from "./known-threads";

/**
 * One transaction's share of `KnownThreads`: which thread rows it checks instead of reading (optimistic only), the
 * message seqs and events it appends, and, once it commits, what this process knows of those threads next. A failed
 * transaction forgets them all.
 */
export class TxKnown {
  /** Threads whose lock is a checked one, with the row taken as theirs. */
  private readonly checked = new Map<string, Row>();
  /** The last message seq appended here, per thread. */
  private readonly seqs = new Map<string, number>();
  /** The messages appended here, per thread, in order. */
  private readonly appended = new Map<string, MessageRecord[]>();
  private readonly reserved: [threadId: string, first: number, last: number][] = [];
  private readonly forgotten = new Set<string>();
  /** Each locked thread's row as it was when locked, before this transaction's writes. */
  private readonly from = new Map<string, RowStamp>();

  constructor(
    private readonly known: KnownThreads,
    private readonly history: PgHistoryCache,
    private readonly optimistic: boolean,
  ) {}

  /**
   * The row to check instead of reading it under the lock: optimistic only, and not for a thread last seen stopped or
   * terminated (the step's fence then reads it). Marks the thread checked.
   */
  rowToCheck(threadId: string): Row | undefined {
    if (!this.optimistic || this.forgotten.has(threadId)) return undefined;
    const row = this.known.row(threadId);
    if (!row || row.status === "terminated" || row.stopRequestedAt !== null) return undefined;
    this.checked.set(threadId, row);
    return row;
  }

  /** The row a checked lock takes as the thread's (undefined when the thread's lock is not a checked one). */
  checkedRow(threadId: string): Row | undefined {
    return this.checked.get(threadId);
  }

  /** The thread's row when this transaction locked it (the first lock: a later one may follow its own writes). */
  lockedFrom(threadId: string, row: Row): void {
    if (!this.from.has(threadId)) this.from.set(threadId, stampOf(row));
  }

  /** The next message's seq with the last seq it expects, when the thread's lock is checked and its last seq known. */
  nextSeq(threadId: string): { after: number; seq: number } | undefined {
    if (!this.checked.has(threadId)) return undefined;
    const after = this.seqs.get(threadId) ?? this.known.messageSeq(threadId);
    if (after === undefined) return undefined;
    this.seqs.set(threadId, after + 1);
    return { after, seq: after + 1 };
  }

  /** A message appended here (its seq set, or read back). */
  appendedMessage(record: MessageRecord): void {
    const seq = this.seqs.get(record.threadId);
    if (seq === undefined || record.seq > seq) this.seqs.set(record.threadId, record.seq);
    const list = this.appended.get(record.threadId);
    if (list) list.push(record);
    else this.appended.set(record.threadId, [record]);
  }

  appendedTo(threadId: string): readonly MessageRecord[] {
    return this.appended.get(threadId) ?? [];
  }

  /** The last seq of the thread's history as known before this transaction, when its lock is checked. */
  historyBase(threadId: string): number | undefined {
    return this.checked.has(threadId) ? this.known.messageSeq(threadId) : undefined;
  }

  eventsReserved(threadId: string, first: number, last: number): void {
    this.reserved.push([threadId, first, last]);
  }

  /**
   * A store wrote the row without reading it back: what this process knows of it is stale, here too (the next lock
   * reads the row; the thread's messages get their seqs from the database again).
   */
  forget(threadId: string): void {
    this.forgotten.add(threadId);
    this.checked.delete(threadId);
  }

  /**
   * Committed: the rows held at the end are the thread rows, the seqs appended the last ones. The held histories
   * follow the rows this transaction moved on, unless it ran Prisma queries (`prisma`): stored messages are edited
   * and deleted only there, and the direct statements here only append them.
   */
  async publish(locked: ReadonlyMap<string, Promise<Row | null>>, prisma: boolean): Promise<void> {
    for (const id of this.forgotten) if (!locked.has(id)) this.known.forget(id);
    for (const [id, first, last] of this.reserved) {
      this.known.eventsAppended(id, first, last);
      if (!prisma) this.history.eventsAppended(id, first, last);
    }
    for (const [id, held] of locked) {
      const row = await held;
      this.known.setRow(id, row);
      const from = this.from.get(id);
      if (!prisma && row && from) this.history.advance(id, from, stampOf(row));
    }
    for (const [id, seq] of this.seqs) this.known.setMessageSeq(id, seq);
  }

  /** Not committed: nothing of what it touched is known any more. */
  discard(locked: ReadonlyMap<string, unknown>): void {
    for (const ids of [this.forgotten, locked.keys(), this.seqs.keys(), this.reserved.map(([id]) => id)]) for (const id of ids) this.known.forget(id);
  }
}
