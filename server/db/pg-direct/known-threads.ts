import { setRecent } from "@/server/runtime/bounded-map";
import type { Row } from "./connection";

interface Known {
  /** The `Thread` row as this process last read or committed it. */
  row?: Row;
  /** The thread's last message seq as this process last read or committed it. */
  messageSeq?: number;
  /**
   * The highest version and event counter this process has seen the row reach (both only grow): a row below it is
   * older than one already seen. Two transactions' commits may be handled here in another order than they committed.
   */
  floor?: { version: number; eventSeq: number };
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
    const known = this.entries.get(threadId);
    const [version, eventSeq] = [Number(row.version), Number(row.eventSeq)];
    const floor = known?.floor;
    if (floor && (version < floor.version || eventSeq < floor.eventSeq)) {
      // Older than a row already seen (its commit handled after a later one's): what is held is unknown.
      delete known!.row;
      return;
    }
    const raised = { version: Math.max(version, floor?.version ?? 0), eventSeq: Math.max(eventSeq, floor?.eventSeq ?? 0) };
    setRecent(this.entries, threadId, { ...known, row, floor: raised }, this.max);
  }

  setMessageSeq(threadId: string, seq: number): void {
    setRecent(this.entries, threadId, { ...this.entries.get(threadId), messageSeq: seq }, this.max);
  }

  /** Events `first`…`last` were appended outside a lock: the held row follows if it was at `first - 1`. */
  eventsAppended(threadId: string, first: number, last: number): void {
    const known = this.entries.get(threadId);
    if (!known) return setRecent(this.entries, threadId, { floor: { version: 0, eventSeq: last } }, this.max);
    known.floor = { version: known.floor?.version ?? 0, eventSeq: Math.max(last, known.floor?.eventSeq ?? 0) };
    if (known.row && Number(known.row.eventSeq) === first - 1) known.row = { ...known.row, eventSeq: last };
    else delete known.row;
  }

  forget(threadId: string): void {
    this.entries.delete(threadId);
  }
}
