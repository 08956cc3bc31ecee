import type { ParsedAgentDefinition } from "@/server/spec";
import { normalizeSessionBinding } from "@/server/spec";
import type { SecretBox } from "../env/secret-box";
import type { Emit } from "../events/publisher";
import { updateMessage } from "../kernel/message-writer";
import { bareScope } from "../kernel/scope";
import { reportSessionEnd } from "../subagents/report";
import type { MessageRecord, QueuedMessageRecord, StopReason, Stores, ThreadRecord } from "../ports";
import type { RuntimeDeps } from "../kernel/deps";
import { bindingPayload, type SideStopConfig, type StopDecision } from "../kernel/stop-rules";
import { idleTx } from "./go-idle";
import { endSession, endTurn } from "../kernel/turns";

export function sideStopConfig(side: ParsedAgentDefinition["sideA"]): SideStopConfig {
  return {
    stopOnResponse: side.stopOnResponse,
    stopTool: side.stopTool,
    stopToolResponseProperty: side.stopToolResponseProperty,
    sessionStop: normalizeSessionBinding(side.sessionStop),
    sessionFail: normalizeSessionBinding(side.sessionFail),
  };
}

/** Persist the outcome of stop evaluation: end the turn or the session, record the reason, announce it. */
export async function applyStopDecision(
  deps: RuntimeDeps,
  threadId: string,
  agent: ParsedAgentDefinition,
  decision: StopDecision,
  assistant: MessageRecord,
): Promise<void> {
  if (decision.scope === "none") return;
  if (decision.scope === "turn") await rewriteStopToolContent(deps, threadId, agent, decision, assistant);
  const parentToWake = await deps.events.commit(async (tx, emit): Promise<string | null> => {
    // The thread locked, then its last message and its queue (for `idleIfDone`): one round trip where the database
    // pipelines them (the reads run after the lock).
    const [locked, endSeq, pending] = await Promise.all([tx.threads.get(threadId), tx.messages.lastSeq(threadId), tx.queue.pending(threadId)]);
    const thread = locked as ThreadRecord;
    const side = thread.state.turn?.side ?? assistant.side ?? "a";
    if (decision.scope === "session") {
      const payload = bindingPayload(decision.binding, decision.call);
      const state = endSession(thread.state, {
        reason: decision.reason,
        ok: decision.reason === "session_stop",
        result: payload.message,
        attachments: payload.attachments,
      });
      const updated = await tx.threads.update(threadId, { state, stopReason: decision.reason });
      await emit(threadId, { type: "thread.stopped", reason: decision.reason, side, scope: "session" });
      if (!thread.parentId) return null;
      const outcome = { ok: decision.reason === "session_stop", message: payload.message, attachments: payload.attachments };
      return reportSessionEnd(tx, emit, updated, outcome, deps.secrets);
    }
    const parent = await endTurnTx(thread, agent, decision.reason, endSeq, tx, emit, deps.secrets);
    if (parent === null) await idleIfDone(tx, emit, thread, pending);
    return parent;
  });
  if (parentToWake) await deps.schedule(parentToWake);
}

/**
 * The turn just ended: when no other turn started and nothing is due (no queued message, no continue or stop
 * request), the thread goes idle in the same transaction instead of the executor's next pass opening one for it.
 */
async function idleIfDone(tx: Stores, emit: Emit, before: ThreadRecord, pending: QueuedMessageRecord[]): Promise<void> {
  const after = await tx.threads.get(before.id);
  if (!after || after.state.turn?.active || after.state.session.ended || after.stopRequestedAt !== null || after.status !== "running") return;
  await idleTx(tx, emit, before, after, pending);
}

const agentSide = (agent: ParsedAgentDefinition, side: "a" | "b") => (side === "a" ? agent.sideA : (agent.sideB ?? agent.sideA));

/**
 * A `stopTool` call's `stopToolResponseProperty` argument becomes the stored assistant content. It is an update like
 * any other, so the update hooks run (and secrets are masked); it is idempotent if the stop is evaluated again.
 */
async function rewriteStopToolContent(
  deps: RuntimeDeps,
  threadId: string,
  agent: ParsedAgentDefinition,
  decision: Extract<StopDecision, { scope: "turn" }>,
  assistant: MessageRecord,
): Promise<void> {
  if (decision.reason !== "stop_tool" || !decision.call?.args) return;
  const thread = await deps.persistence.threads.get(threadId);
  if (!thread) return;
  const side = thread.state.turn?.side ?? assistant.side ?? "a";
  const prop = agentSide(agent, side).stopToolResponseProperty;
  if (!prop || !(prop in decision.call.args)) return;
  const v = decision.call.args[prop];
  await updateMessage(bareScope(deps, thread, side), assistant.id, { content: typeof v === "string" ? v : JSON.stringify(v) });
}

/**
 * End the current turn with `reason`; in dual_ai this may end the session at the turn cap, and a child whose session
 * ends that way reports a failure to its parent. Returns the parent to wake, if any.
 */
export async function endTurnTx(
  thread: ThreadRecord,
  agent: ParsedAgentDefinition,
  reason: StopReason,
  endSeq: number,
  tx: Stores,
  emit: Emit,
  box: SecretBox | null,
): Promise<string | null> {
  const side = thread.state.turn?.side ?? "a";
  const { state, sessionCapReached } = endTurn(thread.state, agent, endSeq);
  await emit(thread.id, { type: "thread.stopped", reason, side, scope: "turn" });
  if (sessionCapReached) {
    const detail =
      `The session reached its limit of ${agent.maxSessionTurns} turns per side (maxSessionTurns) and ended ` +
      `without a successful session stop or fail tool call.`;
    const ended = endSession(state, { reason: "max_session_turns", ok: false, result: detail });
    const updated = await tx.threads.update(thread.id, { state: ended, stopReason: "max_session_turns" });
    await emit(thread.id, { type: "thread.stopped", reason: "max_session_turns", scope: "session" });
    return thread.parentId ? reportSessionEnd(tx, emit, updated, { ok: false, message: detail, attachments: [] }, box) : null;
  }
  await tx.threads.update(thread.id, { state, stopReason: reason });
  return null;
}

/** End the current turn with `reason` (a safety limit), in its own transaction; wake the parent it reports to. */
export async function endTurnWith(deps: RuntimeDeps, thread: ThreadRecord, agent: ParsedAgentDefinition, reason: StopReason): Promise<void> {
  const parent = await deps.events.commit(async (tx, emit) => {
    const fresh = (await tx.threads.get(thread.id)) ?? thread;
    const endSeq = await tx.messages.lastSeq(thread.id);
    return endTurnTx(fresh, agent, reason, endSeq, tx, emit, deps.secrets);
  });
  if (parent) await deps.schedule(parent);
}
