import type { RuntimeDeps } from "../kernel/deps";
import type { StepContext } from "../kernel/step-context";
import { evaluateStops, type ExecutedCall } from "../kernel/stop-rules";
import type { OfferedTool } from "../kernel/tool-call-context";
import { newId } from "../ids";
import type { MessageRecord, ThreadRecord, ToolCallRecord } from "../ports";
import { applySessionStatus } from "../subagents/status";
import { runToolCalls, type AnnouncedCall } from "../tools/dispatch";
import { applyStopDecision, sideStopConfig } from "./apply-stop";
import type { Carry } from "./carry";
import { stopRequested } from "./stop-request";

/** What the step found for its tools: a pending stop, the call already announced as started, an empty registry. */
export interface ToolStart {
  stopRequested: boolean;
  announced: AnnouncedCall | undefined;
  /** The thread had no children when the step began: only its own tools add one, so its tools need not read again. */
  childless: boolean;
}

/** Run the step's tool calls (all, or the ones still missing a result) and evaluate stops. */
export async function finishStep(
  deps: RuntimeDeps,
  thread: ThreadRecord,
  ctx: StepContext,
  assistant: MessageRecord,
  calls: ToolCallRecord[],
  signal: AbortSignal,
  stepId: string,
  alreadyExecuted: ExecutedCall[] = [],
  offered?: Map<string, OfferedTool>,
  start?: ToolStart,
  /** Where to leave the last tool message unstored, when nothing else needs it stored first. */
  carry?: Carry,
): Promise<"done" | "waiting"> {
  const children = start?.childless ? [] : await deps.persistence.subagents.listByParent(thread.id);
  const tc = { deps, thread, ctx, side: ctx.side, signal, stepId, assistantMessage: assistant, depth: 0, offered, children };
  // A stop requested while the model answered: its tools do not run (the loop records the stop; they get errors).
  // (Read from the database, unless the step's own transaction just did.)
  if (calls.length > 0 && (signal.aborted || (start ? start.stopRequested : await stopRequested(deps, thread.id)))) return "done";
  const ran = calls.length > 0 ? await runToolCalls(tc, calls, start?.announced, carry !== undefined) : null;
  const { executed, deferred, threadChanged } = ran ?? { executed: [], deferred: 0, threadChanged: false };
  const all = [...alreadyExecuted, ...executed];
  const decision = evaluateStops(sideStopConfig(ctx.sideConfig), { calls: all, hadToolCalls: (assistant.toolCalls ?? []).length > 0 });
  if (ran?.unstored) {
    // Carried to the next step's request only when the loop goes straight on to it.
    const goesOn = !signal.aborted && !threadChanged && deferred === 0 && decision.scope === "none" && thread.parentId === null;
    if (goesOn && carry) carry.unstored = ran.unstored;
    else await ran.unstored.store();
  }
  if (signal.aborted) return "done"; // the loop records the user stop
  await applySessionStatus(deps, thread, ctx, executed);
  if (deferred > 0) {
    await waitForChildren(deps, thread.id);
    return "waiting";
  }
  await applyStopDecision(deps, thread.id, ctx.agent, decision, assistant);
  return "done";
}

/** A blocking subagent call is pending: the activation ends; the thread stays `running` until the child reports. */
async function waitForChildren(deps: RuntimeDeps, threadId: string): Promise<void> {
  await deps.events.commit(async (tx, emit) => {
    const t = await tx.threads.get(threadId);
    if (!t || t.status === "running") return;
    await tx.threads.update(threadId, { status: "running" });
    await emit(threadId, { type: "thread.status", status: "running", stopReason: t.stopReason });
  });
}

/**
 * After a restart: the side's last step may have stored its response but not finished its tools or its stop
 * evaluation. Finish it from the stored messages (missing tool results run now) instead of asking the model again.
 */
export async function finishPendingStep(
  deps: RuntimeDeps,
  thread: ThreadRecord,
  ctx: StepContext,
  signal: AbortSignal,
  history: MessageRecord[],
): Promise<false | "done" | "waiting"> {
  const turn = thread.state.turn!;
  const inTurn = history.filter((m) => m.seq > turn.startSeq);
  const own = [...inTurn].reverse().find((m) => m.side === ctx.side && m.role !== "tool" && m.role !== "system");
  if (!own) return false;
  const results = new Map(inTurn.filter((m) => m.role === "tool" && m.toolCallId).map((m) => [m.toolCallId!, m]));
  const calls = own.toolCalls ?? [];
  const missing = calls.filter((c) => !results.has(c.id));
  // Unanswered calls always come first (a blocking subagent keeps the side waiting even when messages arrive).
  const laterMessages = inTurn.some((m) => m.seq > own.seq && m.role !== "tool");
  if (missing.length === 0 && laterMessages) return false;
  const done: ExecutedCall[] = calls
    .filter((c) => results.has(c.id))
    .map((c) => {
      const r = results.get(c.id)!;
      let args: Record<string, unknown> | null = null;
      try {
        args = JSON.parse(c.function.arguments || "{}");
      } catch {}
      return { name: c.function.name, args, status: r.toolStatus === "error" ? "error" : "success", text: r.content ?? "" };
    });
  const decision = evaluateStops(sideStopConfig(ctx.sideConfig), { calls: done, hadToolCalls: calls.length > 0 });
  if (missing.length === 0 && decision.scope === "none") return false;
  deps.log("debug", "finishing a stored step", { threadId: thread.id, missingToolCalls: missing.length });
  // Keep the step's id (instances it spawns share one spawn group); steps stored without one get a new id.
  const stepId = typeof own.metadata?.step_id === "string" ? own.metadata.step_id : newId();
  return finishStep(deps, thread, ctx, own, missing, signal, stepId, done);
}
