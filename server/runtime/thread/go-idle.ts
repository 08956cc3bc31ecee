import type { Emit } from "../events/publisher";
import type { RuntimeDeps } from "../kernel/deps";
import type { QueuedMessageRecord, Stores, ThreadRecord } from "../ports";
import { syncRegistryStatus } from "../subagents/status";

/**
 * In the caller's transaction: nothing is due, so the thread waits. Returns false (and changes nothing) when a queued
 * message or a continue request is waiting.
 *
 * The thread row is locked first (FOR UPDATE on PostgreSQL), then the queue is read: a child that reports
 * concurrently either committed its message before the lock (seen here) or waits for it and then finds the thread
 * idle and wakes it. Checking the queue before the lock could strand such a message. `fresh`: the thread as the
 * caller just read it in this transaction (else it is read here).
 */
export async function idleTx(
  tx: Stores,
  emit: Emit,
  thread: ThreadRecord,
  fresh?: ThreadRecord,
  /** The queue as read in this transaction after the lock, if the caller did. */
  pending?: QueuedMessageRecord[],
): Promise<boolean> {
  const threadId = thread.id;
  // The queue is asked for right behind the lock (one round trip where the database pipelines them; it runs after it).
  const [locked, queued] = await Promise.all([fresh ?? tx.threads.get(threadId), pending ?? tx.queue.pending(threadId)]);
  fresh = locked ?? thread;
  if (queued.length > 0) return false;
  if (fresh.state.continueRequested) return false;
  // A stop that arrived after the last step is satisfied by going idle: the request is cleared.
  if (fresh.stopRequestedAt !== null && fresh.status !== "terminated") await tx.threads.update(threadId, { stopRequestedAt: null });
  if (fresh.status !== "idle" && fresh.status !== "terminated") {
    await tx.threads.update(threadId, { status: "idle" });
    await emit(threadId, { type: "thread.status", status: "idle", stopReason: fresh.stopReason });
    // Only a child has an entry in a registry (its parent's).
    if (fresh.parentId) await syncRegistryStatus(tx, emit, threadId, "running", "idle");
  }
  return true;
}

/** Nothing is due: the thread waits. Returns false when a message arrived meanwhile (keep going). */
export async function goIdle(deps: RuntimeDeps, thread: ThreadRecord): Promise<boolean> {
  return deps.events.commit((tx, emit) => idleTx(tx, emit, thread));
}
