import { ConflictError, NotFoundError } from "../errors";
import { nowMicros } from "../ids";
import type { ThreadRecord } from "../ports";
import type { RuntimeDeps } from "../kernel/deps";

/**
 * A user stop is durable: `POST /stop` writes `stopRequestedAt` on the thread before it answers. The executor that
 * runs (or next runs) the thread, in this process or another, after a restart too, checks it before each LLM step
 * and before running tools, applies it (`user_stop`, dangling tool calls get an error result) and clears it. An
 * in-process activation is also aborted at once, so the in-flight LLM call ends immediately.
 */
export async function requestStop(deps: RuntimeDeps, threadId: string): Promise<{ thread: ThreadRecord; requested: boolean }> {
  const result = await deps.events.commit(async (tx) => {
    const t = await tx.threads.get(threadId);
    if (!t) throw new NotFoundError(`Thread ${threadId} not found`);
    // Idle or terminated: nothing is in progress or due, so there is nothing to stop.
    if (t.status !== "running") return { thread: t, requested: false };
    if (t.stopRequestedAt !== null) return { thread: t, requested: true };
    return { thread: await tx.threads.update(threadId, { stopRequestedAt: nowMicros() }), requested: true };
  });
  if (!result.requested) return result;
  deps.aborts.abort(threadId, "user_stop");
  // Whether or not an activation runs now (a thread waiting for a blocking subagent, queued work not yet claimed),
  // one will: it applies the stop before any LLM step.
  await deps.schedule(threadId);
  return result;
}

/** Whether a stop request is waiting to be applied (read from the database: it may come from another process). */
export async function stopRequested(deps: RuntimeDeps, threadId: string): Promise<boolean> {
  const t = await deps.persistence.threads.get(threadId);
  return !!t && t.status !== "terminated" && t.stopRequestedAt !== null;
}

/** Wait until the thread's stop request was applied (or the thread ended), at most `timeoutMs`. */
export async function waitForStopApplied(deps: RuntimeDeps, threadId: string, timeoutMs: number): Promise<ThreadRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = await deps.persistence.threads.get(threadId);
    if (!t) throw new NotFoundError(`Thread ${threadId} not found`);
    const applied = t.stopRequestedAt === null || t.status === "terminated";
    if ((applied && !deps.aborts.isRunning(threadId)) || Date.now() >= deadline) return t;
    await new Promise((r) => setTimeout(r, 15));
  }
}

/**
 * `POST /continue`: an idle thread runs on without a new message (the paused or last side takes another turn). On a
 * running thread it is a no-op that reports the current status: the thread is already doing (or about to do) work,
 * and asking it to continue must not add a turn nobody requested.
 */
export async function requestContinue(deps: RuntimeDeps, threadId: string): Promise<{ thread: ThreadRecord; started: boolean }> {
  const result = await deps.events.commit(async (tx, emit) => {
    const t = await tx.threads.get(threadId);
    if (!t) throw new NotFoundError(`Thread ${threadId} not found`);
    if (t.status === "terminated") throw new ConflictError(`Thread ${threadId} is terminated`);
    if (t.status === "running") return { thread: t, started: false };
    const updated = await tx.threads.update(threadId, { status: "running", state: { ...t.state, continueRequested: true } });
    await emit(threadId, { type: "thread.status", status: "running", stopReason: t.stopReason });
    return { thread: updated, started: true };
  });
  if (result.started) await deps.schedule(threadId);
  return result;
}
