import { redactText } from "../env/redact";
import { threadSecrets } from "../kernel/thread-secrets";
import { bareScope } from "../kernel/scope";
import { createThreadState } from "../state/thread-state";
import type { RuntimeDeps } from "../kernel/deps";
import { depsForThread } from "../kernel/thread-definitions";

const MAX_ATTEMPTS = 3;

export const INTERRUPTED_ERROR = "The effect was interrupted (the server stopped while it ran)";
export const NOT_REPEATED_ERROR =
  "The effect was interrupted (the server stopped while it ran) and was not run again: its definition says onInterrupt: 'fail'";

/**
 * Run a scheduled effect with a `ThreadState` of its thread. A failure is recorded with its error and attempt count
 * and retried with backoff up to 3 attempts; an effect whose thread is terminated, or that was cancelled, is skipped.
 * An effect found `running` was interrupted by a crash (its work item is leased to us alone, so no one else runs it):
 * that attempt counts, and it runs again (`state.execution.attempt` one higher) unless it used up its attempts or its
 * definition says `onInterrupt: 'fail'`.
 */
export async function runEffect(rootDeps: RuntimeDeps, effectId: string): Promise<void> {
  let deps = rootDeps;
  const p = deps.persistence;
  const effect = await p.effects.get(effectId);
  if (!effect || (effect.status !== "pending" && effect.status !== "running")) return;
  if (effect.status === "running") {
    const refuses = deps.definitions().effect(effect.name)?.onInterrupt === "fail";
    deps.log("warn", `effect ${effect.name} was interrupted (attempt ${effect.attempts})${refuses ? "" : "; running it again"}`, { threadId: effect.threadId });
    if (refuses || effect.attempts >= MAX_ATTEMPTS) {
      const error = refuses ? NOT_REPEATED_ERROR : INTERRUPTED_ERROR;
      await deps.events.commit(async (tx, emit) => {
        await tx.effects.update(effectId, { status: "failed", lastError: error });
        await emit(effect.threadId, { type: "effect.updated", effectId, name: effect.name, status: "failed", attempts: effect.attempts, error, errorCode: "interrupted" });
      });
      return;
    }
    await p.effects.update(effectId, { status: "pending", lastError: INTERRUPTED_ERROR });
  }
  const thread = await p.threads.get(effect.threadId);
  if (!thread || thread.status === "terminated") {
    await p.effects.update(effectId, { status: "cancelled", lastError: "The thread was terminated before the effect ran" });
    return;
  }
  // Effects are code (never part of a draft), but their ThreadState sees the draft thread's definitions.
  if (thread.state.draft) {
    try {
      deps = depsForThread(rootDeps, thread);
    } catch (err) {
      rootDeps.log("warn", `effect ${effect.name} runs with the saved definitions`, { threadId: thread.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  const def = deps.definitions().effect(effect.name);
  const attempts = effect.attempts + 1;
  const announce = (status: "running" | "done" | "failed" | "pending", error?: string) =>
    deps.events.emit(thread.id, { type: "effect.updated", effectId, name: effect.name, status, attempts, ...(error ? { error } : {}) });
  if (!def) {
    const error = `Effect ${effect.name} is not defined (agents/effects/${effect.name}.ts), or its file has errors`;
    await p.effects.update(effectId, { status: "failed", attempts, lastError: error });
    await announce("failed", error);
    return;
  }
  await p.effects.update(effectId, { status: "running", attempts });
  await announce("running");
  const scope = { ...bareScope(deps, thread), stepId: `effect:${effectId}`, pending: [] as Promise<unknown>[], run: { toolCallId: null, attempt: attempts } };
  try {
    await def.execute(createThreadState(scope), effect.args);
    await Promise.all(scope.pending);
    await p.effects.update(effectId, { status: "done", lastError: null });
    await announce("done");
  } catch (err) {
    // Masked before it is logged, stored (GET /effects) or announced.
    const error = redactText(err instanceof Error ? err.message : String(err), await threadSecrets(deps, thread));
    deps.log("warn", `effect ${effect.name} failed (attempt ${attempts})`, { threadId: thread.id, error });
    if (attempts < MAX_ATTEMPTS) {
      const runAt = new Date(Date.now() + 500 * 2 ** (attempts - 1));
      await deps.events.commit(async (tx) => {
        await tx.effects.update(effectId, { status: "pending", lastError: error, runAt });
        await tx.work.enqueue({ kind: "effect", threadId: thread.id, payload: { effectId }, runAt, dedupeKey: `effect:${effectId}` });
      });
      await announce("pending", error);
    } else {
      await p.effects.update(effectId, { status: "failed", lastError: error });
      await announce("failed", error);
    }
  }
}
