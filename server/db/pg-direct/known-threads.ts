import { setRecent } from "@/server/runtime/bounded-map";
import type { Row } from "./connection";

interface Known {
  /** The `Thread` row as this process last read or committed it. */
  row?: Row;
  /** The thread's last message seq as this process last read or committed it. */
  messageSeq?: number;
}

/**
 * What this process last saw of recently stepped threads: the `Thread` row and the last message seq. An optimistic
 * transaction (`TransactionOptions.optimistic`) takes them instead of reading them under its lock, and checks them in
 * the same round trip (pg-direct/checks.ts): a thread another writer changed meanwhile fails that transaction. Every
 * write of a `Thread` row bumps its `version` except the event counter's, so the row is unchanged when both its
 * version and its `eventSeq` are. Kept current by this process's own reads and commits; a failed transaction forgets
 * the threads it touched. Bounded to the most recently used threads; forgotten when an activation ends.
 */
export class KnownThreads {
  private readonly entries = new Map<string, Known>();
  constructor(private readonly max = 1024) {}

  row(threadId: string): Row | undefined {
    return this.entries.get(threadId)?.row;
  }

  messageSeq(threadId: string): number | undefined {
    return this.entries.get(threadId)?.messageSeq;
  }

  setRow(threadId: string, row: Row | null): void {
    if (!row) return this.forget(threadId);
    setRecent(this.entries, threadId, { ...this.entries.get(threadId), row }, this.max);
  }

  setMessageSeq(threadId: string, seq: number): void {
    setRecent(this.entries, threadId, { ...this.entries.get(threadId), messageSeq: seq }, this.max);
  }

  /** Events `first`…`last` were appended outside a lock: the held row follows if it was at `first - 1`. */
  eventsAppended(threadId: string, first: number, last: number): void {
    const known = this.entries.get(threadId);
    if (!known?.row) return;
    if (Number(known.row.eventSeq) === first - 1) known.row = { ...known.row, eventSeq: last };
    else delete known.row;
  }

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }
}
