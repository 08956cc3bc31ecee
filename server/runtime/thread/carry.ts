import { appendedRecord } from "../kernel/appended-record";
import type { MessageRecord } from "../ports";
import type { UnstoredResult } from "../tools/result-message";

/**
 * A step's last tool message, carried past the step unstored: the next step's request includes it, and it is stored
 * while that request is in flight (`LlmCallOptions.whileInFlight`), so its transaction overlaps the model's latency
 * instead of preceding the request. It is stored before any other write of the activation: the stored order of
 * messages and events is the same as if it had been stored at once (its `tool.completed` and `message.created`
 * precede the next step's `step.started`). A crash before it is stored loses only that result: the restarted
 * activation finds the call unanswered and runs the tool again, as after a crash inside the tool.
 *
 * The executor carries a result only when nothing else can write messages to the thread meanwhile (no children, no
 * hooks), and only when the loop goes straight on to the next request (no stop, no session status, no queued
 * message, no handoff).
 */
export interface Carry {
  unstored: UnstoredResult | null;
}

/** Store the carried message, if any (once; later calls wait for the same write). */
export async function settleCarry(carry: Carry): Promise<void> {
  const unstored = carry.unstored;
  if (!unstored) return;
  try {
    await unstored.store();
  } finally {
    if (carry.unstored === unstored) carry.unstored = null;
  }
}

/** The carried message was stored in another transaction (the next answer's), which committed: nothing is left to store. */
export function foldedInto(carry: Carry, folded: UnstoredResult): void {
  folded.committed();
  if (carry.unstored === folded) carry.unstored = null;
}

/** The history with the carried message last, as it will be stored (the seq after the last one). */
export function carriedHistory(history: MessageRecord[], threadId: string, carry: Carry): MessageRecord[] {
  const m = carry.unstored?.message;
  if (!m) return history;
  const record = appendedRecord(m, { id: m.id, threadId, seq: (history[history.length - 1]?.seq ?? 0) + 1, createdAt: m.createdAt });
  return [...history, record];
}
