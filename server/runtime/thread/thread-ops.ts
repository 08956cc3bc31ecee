import { ConflictError, NotFoundError } from "../errors";
import { nowMicros } from "../ids";
import type { QueuedMessageRecord } from "../ports";
import type { EnqueueInput, RuntimeDeps } from "../kernel/deps";
import { syncRegistryStatus } from "../subagents/status";
import { answerTerminatedChild } from "../subagents/report";

/**
 * Queue a message durably (design.md §4): delivered in FIFO order before the next LLM step while the thread is
 * executing, or it starts a turn when idle. A terminated thread rejects it.
 */
export async function enqueueMessage(deps: RuntimeDeps, threadId: string, input: EnqueueInput): Promise<QueuedMessageRecord> {
  const entry = await deps.events.commit(async (tx, emit) => {
    const thread = await tx.threads.get(threadId);
    if (!thread) throw new NotFoundError(`Thread ${threadId} not found`);
    if (thread.status === "terminated") throw new ConflictError(`Thread ${threadId} is terminated and accepts no messages`);
    const q = await tx.queue.enqueue(threadId, {
      role: input.role,
      content: input.content,
      attachments: input.attachments ?? null,
      silent: input.silent ?? false,
      metadata: input.metadata ?? null,
    });
    await emit(threadId, { type: "queue.enqueued", queueId: q.id, role: q.role });
    if (thread.status !== "running") {
      await tx.threads.update(threadId, { status: "running" });
      await emit(threadId, { type: "thread.status", status: "running", stopReason: thread.stopReason });
      await syncRegistryStatus(tx, emit, threadId, "idle", "running");
    }
    return q;
  });
  await deps.schedule(threadId);
  return entry;
}

/**
 * Soft terminate (design.md §4): final; aborts the in-flight step, rejects queued and new messages, sets the parent's
 * registry entry to `terminated`, and terminates the thread's live descendants. A parent call still waiting on this
 * (blocking) child gets a tool error saying so, and the parent goes on.
 */
export async function terminateThread(deps: RuntimeDeps, threadId: string): Promise<void> {
  const parentToWake = await deps.events.commit(async (tx, emit): Promise<string | null> => {
    const thread = await tx.threads.get(threadId);
    if (!thread) throw new NotFoundError(`Thread ${threadId} not found`);
    if (thread.status === "terminated") return null;
    await tx.threads.update(threadId, {
      status: "terminated",
      terminatedAt: nowMicros(),
      state: { ...thread.state, turn: null },
    });
    await tx.queue.rejectPending(threadId);
    await emit(threadId, { type: "thread.status", status: "terminated", stopReason: thread.stopReason });
    const entry = await tx.subagents.get(threadId);
    if (entry && entry.status !== "terminated") {
      await tx.subagents.update(threadId, { status: "terminated" });
      await emit(entry.parentId, { type: "subagent.updated", childId: threadId, name: entry.name, status: "terminated", change: "terminated" });
    }
    return entry ? answerTerminatedChild(tx, emit, entry) : null;
  });
  deps.aborts.abort(threadId, "terminated");
  if (parentToWake) await deps.schedule(parentToWake);
  const { threads } = await deps.persistence.threads.list({ parentId: threadId, limit: 10_000 });
  for (const child of threads) if (child.status !== "terminated") await terminateThread(deps, child.id);
}
