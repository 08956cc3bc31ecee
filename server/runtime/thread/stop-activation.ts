import type { RuntimeDeps } from "../kernel/deps";
import { redactForThread } from "../kernel/thread-secrets";
import { toolError } from "../kernel/tool-call-context";
import { endSession } from "../kernel/turns";
import type { StopReason, ThreadRecord } from "../ports";
import { reportSessionEnd } from "../subagents/report";
import { STOPPED_BEFORE_RUN } from "../tools/dispatch";
import { storeResult } from "../tools/result-message";

/**
 * The activation ends here (a safety limit, an error or a user stop); the thread waits with the reason recorded. A
 * child stopped by a limit or an error reports the failure to its parent (no terminal session tool was called).
 */
export async function stopActivation(deps: RuntimeDeps, thread: ThreadRecord, reason: StopReason, detail: string): Promise<void> {
  const parent = await deps.events.commit(async (tx, emit) => {
    const fresh = (await tx.threads.get(thread.id)) ?? thread;
    if (fresh.status === "terminated") return null;
    const turn = fresh.state.turn ? { ...fresh.state.turn, active: false } : null;
    const reportable = fresh.parentId && reason !== "user_stop" && !fresh.state.session.ended;
    const state = reportable ? endSession({ ...fresh.state, turn }, { reason, ok: false, result: detail }) : { ...fresh.state, turn };
    // Whatever ended the activation, a pending stop request is now satisfied.
    const updated = await tx.threads.update(thread.id, { status: "idle", stopReason: reason, state, stopRequestedAt: null });
    await emit(thread.id, { type: "thread.stopped", reason, scope: "activation", side: fresh.state.turn?.side, detail });
    await emit(thread.id, { type: "thread.status", status: "idle", stopReason: reason });
    if (!reportable) return null;
    const message = `The subagent stopped (${reason}): ${detail}. No terminal session tool (sessionStop or sessionFail) was called.`;
    return reportSessionEnd(tx, emit, updated, { ok: false, message, attachments: [] }, deps.secrets);
  });
  if (parent) await deps.schedule(parent);
}

export async function stopWithError(deps: RuntimeDeps, thread: ThreadRecord, err: unknown): Promise<void> {
  // An error text can quote a value the thread knows (a provider echoing a key, a tool's message): mask secrets.
  const detail = await redactForThread(deps, thread, err instanceof Error ? err.message : String(err));
  deps.log("warn", "activation stopped with an error", { threadId: thread.id, error: detail });
  await stopActivation(deps, thread, "error", detail);
}

/** A user stop (design.md §4): dangling tool calls get an error result, the turn pauses, `user_stop` is recorded. */
export async function finishUserStop(deps: RuntimeDeps, thread: ThreadRecord): Promise<void> {
  if (thread.status === "terminated") return;
  const turn = thread.state.turn;
  if (turn) {
    const inTurn = await deps.persistence.messages.list(thread.id, { afterSeq: turn.startSeq, includeSilent: true });
    const answered = new Set(inTurn.filter((m) => m.role === "tool").map((m) => m.toolCallId));
    for (const m of inTurn) {
      for (const call of m.toolCalls ?? []) {
        if (answered.has(call.id)) continue;
        const tc = { deps, thread, side: turn.side, stepId: "", assistantMessage: m, depth: 0 } as unknown as Parameters<typeof storeResult>[0];
        await storeResult(tc, call, toolError(STOPPED_BEFORE_RUN, { error_code: "user_stop" }), 0);
      }
    }
  }
  await stopActivation(deps, thread, "user_stop", "Stopped by the user");
}
