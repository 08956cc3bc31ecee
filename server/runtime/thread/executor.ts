import { isAbortError } from "../abort";
import { newId } from "../ids";
import { createMessage } from "../kernel/message-writer";
import type { Emit } from "../events/publisher";
import type { MessageRecord, StopReason, Stores, ThreadRecord, ToolCallRecord } from "../ports";
import { deliverQueue } from "../queue/deliver";
import { buildStepRequest, callModel, heldAnnouncement, writeAttemptLog, type DeferredAttempt, type LeadEvent } from "../side-loop/llm-step";
import { loadStepContext, type StepContext } from "../kernel/step-context";
import { runToolCalls, storeResult, STOPPED_BEFORE_RUN, toolStartedEvent } from "../tools/dispatch";
import { toolError, type OfferedTool } from "../kernel/tool-call-context";
import { applyStopDecision, endTurnTx, sideStopConfig } from "./apply-stop";
import type { RuntimeDeps } from "../kernel/deps";
import { evaluateStops, type ExecutedCall } from "../kernel/stop-rules";
import { endSession, startTurn } from "../kernel/turns";
import { reportSessionEnd } from "../subagents/report";
import { offeredTools } from "../subagents/offered";
import { applySessionStatus } from "../subagents/status";
import { immediateEntries, runImmediate } from "../subagents/immediate";
import { registryMessage } from "../subagents/texts";
import { stopRequested, watchStopRequests } from "./stop-request";
import { idleTx } from "./go-idle";
import { redactForThread } from "../kernel/thread-secrets";
import { activeHooks } from "../kernel/hook-runner";
import { carriedHistory, settleCarry, type Carry } from "./carry";

/**
 * One activation of a thread: deliver queued messages, then step the active side until nothing is due (ai_human:
 * the human's turn; dual_ai: the session ended), a stop, a safety limit, or an error. All progress is persisted as
 * it happens, so an activation that dies is resumed by the next one from the database.
 */
export async function runActivation(deps: RuntimeDeps, threadId: string): Promise<void> {
  const controller = deps.aborts.begin(threadId);
  const unwatch = watchStopRequests(deps, threadId, controller);
  const carry: Carry = { unstored: null };
  try {
    try {
      await activationLoop(deps, threadId, controller.signal, carry);
    } finally {
      await settleCarry(carry);
    }
  } finally {
    unwatch();
    deps.aborts.end(threadId, controller);
    deps.persistence.release?.(threadId);
    deps.events.forget(threadId);
  }
}

/** `carry`: the last step's final tool message, stored while the next request is in flight (see carry.ts). */
async function activationLoop(deps: RuntimeDeps, threadId: string, signal: AbortSignal, carry: Carry): Promise<void> {
  const p = deps.persistence;
  // The activation's step count starts from 0: reset with the first delivery (one transaction), or on its own before
  // the first step. Either is a read-modify-write of the state in one transaction (the thread row is locked), so that
  // a concurrent request (continue, stop) is never overwritten with what was read before it.
  let latest: ThreadRecord | null = await p.threads.get(threadId);
  if (!latest || latest.status === "terminated") return;
  let resetDue = true;
  const settle = () => settleCarry(carry);
  for (;;) {
    let thread = latest ?? (await p.threads.get(threadId));
    latest = null;
    if (!thread || thread.status === "terminated") return;
    const agent = deps.definitions().agent(thread.agentId);
    if (signal.aborted || thread.stopRequestedAt !== null) {
      // A user stop (durable; possibly requested before this activation was claimed): queued messages are kept in
      // the history, then the stop is applied before any LLM step.
      await settle();
      return finishUserStop(deps, await deliverQueue(deps, thread, agent));
    }
    thread = await activateImmediate(deps, thread, agent, settle);
    thread = await deliverQueue(deps, thread, agent, { resetActivationSteps: resetDue, beforeWrite: settle });
    if (resetDue) {
      resetDue = false;
      if (thread.state.activationSteps !== 0) {
        await settle();
        thread = await p.transaction(async (tx) => {
          const fresh = (await tx.threads.get(threadId)) ?? thread!;
          return fresh.state.activationSteps === 0 ? fresh : tx.threads.update(threadId, { state: { ...fresh.state, activationSteps: 0 } });
        });
      }
    }
    if (!thread.state.turn?.active && thread.state.continueRequested) {
      await settle();
      thread = await p.transaction(async (tx) => {
        const fresh = (await tx.threads.get(threadId)) ?? thread!;
        const side = fresh.state.turn?.side ?? "a";
        const lastSeq = await tx.messages.lastSeq(threadId);
        return tx.threads.update(threadId, { state: { ...startTurn(fresh.state, side, lastSeq), continueRequested: false } });
      });
    }
    if (!thread.state.turn?.active) {
      await settle();
      // Already idle: the transaction that ended the turn found nothing due (see applyStopDecision).
      if (thread.status === "idle") return;
      if (await goIdle(deps, thread)) return;
      continue;
    }
    let ctx: StepContext;
    try {
      ctx = await loadStepContext(deps, thread, thread.state.turn.side);
    } catch (err) {
      await settle();
      return stopWithError(deps, thread, err);
    }
    // One read of the history serves both the check for an unfinished step and the next step's request.
    const history = carriedHistory(await p.messages.list(threadId, { includeSilent: true }), threadId, carry);
    // A stored step whose tools or stop evaluation did not finish (a restart, or a queued tool call): finish it.
    const pending = await finishPendingStep(deps, thread, ctx, signal, history);
    if (pending === "waiting") return;
    if (pending) continue;
    const turn = thread.state.turn;
    if (ctx.sideConfig.maxSteps !== undefined && turn.steps >= ctx.sideConfig.maxSteps) {
      await settle();
      await endTurnWith(deps, thread, ctx, "max_steps");
      continue;
    }
    if (thread.state.activationSteps >= deps.settings.maxTotalSteps) {
      await settle();
      await stopActivation(deps, thread, "max_total_steps", `Reached the ceiling of ${deps.settings.maxTotalSteps} steps in one activation`);
      return;
    }
    const outcome = await runStep(deps, thread, ctx, signal, history, carry);
    if (outcome === "stopped") return;
  }
}

/** Spawn the immediate subagents of the prompt that is active (or about to be), once per activation. */
async function activateImmediate(
  deps: RuntimeDeps,
  thread: ThreadRecord,
  agent: ReturnType<ReturnType<RuntimeDeps["definitions"]>["agent"]>,
  beforeWrite: () => Promise<void>,
): Promise<ThreadRecord> {
  if (!agent) return thread;
  const side = thread.state.turn?.side ?? "a";
  const prompt = (side === "b" ? agent.sideB : agent.sideA)?.prompt;
  if (!prompt || thread.state.immediateDone.includes(prompt) || immediateEntries(deps.definitions(), prompt).length === 0) return thread;
  await beforeWrite();
  const ctx = await loadStepContext(deps, thread, side);
  await runImmediate(deps, thread, ctx);
  return (await deps.persistence.threads.get(thread.id)) ?? thread;
}

/** One LLM step of the active side: request, stored response, tools, stop evaluation. */
async function runStep(
  deps: RuntimeDeps,
  thread: ThreadRecord,
  ctx: StepContext,
  signal: AbortSignal,
  history: MessageRecord[],
  carry: Carry,
): Promise<"continue" | "stopped"> {
  const children = await deps.persistence.subagents.listByParent(thread.id);
  // Only a thread that nothing else writes messages to while it steps carries a result past its request: no children
  // (a report could land between the call and its result), no hooks (one may inject a message while the request is built).
  const mayCarry = children.length === 0 && activeHooks(deps.definitions(), thread.agentId, ctx.prompt.name).length === 0;
  if (!mayCarry) await settleCarry(carry);
  const registryText = registryMessage(children);
  let req;
  let offered;
  try {
    offered = await offeredTools(ctx, children);
    req = await buildStepRequest(deps, ctx, thread, history, registryText ? [registryText] : [], offered.chat, signal);
  } catch (err) {
    await settleCarry(carry);
    await stopWithError(deps, thread, err);
    return "stopped";
  }
  const step = thread.state.activationSteps + 1;
  // `step.started` is stored with the first `llm.request` (one transaction); if no attempt started, on its own.
  const lead: LeadEvent = {
    event: { type: "step.started", stepId: req.stepId, side: ctx.side, agent: ctx.agent.name, prompt: ctx.prompt.name, step },
    done: false,
  };
  const announceStep = async () => {
    if (lead.done) return;
    lead.done = true;
    await deps.events.emit(thread.id, lead.event);
  };
  // The successful attempt's log row and `llm.response` are written with the assistant message (one transaction).
  const deferred: DeferredAttempt = { attempt: null };
  const logAttempt = async (tx: Stores, emit: Emit, messageId: string | null) => {
    const a = deferred.attempt;
    deferred.attempt = null;
    if (!a) return;
    const sizes = { stepId: req.stepId, step, messageCount: req.messages.length, toolCount: req.tools.length };
    await heldAnnouncement(emit, thread.id, sizes, a, lead);
    await writeAttemptLog(tx, emit, ctx, { threadId: thread.id, stepId: req.stepId, step, messageId }, a);
  };
  let result;
  try {
    // The previous step's last tool message is stored while this request is in flight, before anything else.
    const whileInFlight = carry.unstored ? () => settleCarry(carry) : undefined;
    result = await callModel(deps, ctx, thread, req, step, signal, lead, deferred, whileInFlight);
    await settleCarry(carry);
    // An answer that came before its announcement takes it into the message's transaction (see ANNOUNCE_AFTER_MS).
    if (deferred.attempt?.announced !== false) await announceStep();
  } catch (err) {
    await settleCarry(carry);
    await announceStep();
    if (signal.aborted) return "continue"; // the loop delivers queued messages, then records the stop
    if (isAbortError(err)) {
      await finishUserStop(deps, (await deps.persistence.threads.get(thread.id)) ?? thread);
      return "stopped";
    }
    await stopWithError(deps, thread, err);
    return "stopped";
  }
  const toolCalls: ToolCallRecord[] = result.toolCalls.map((c) => ({
    id: c.id || `call_${newId()}`,
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  }));
  const scope = { deps, thread, side: ctx.side, signal, stepId: req.stepId, ctx };
  const assistantId = newId();
  // Read in the message's transaction: whether a stop is pending, and so whether the first tool starts right away
  // (its `tool.started` is stored in that same transaction).
  const start: ToolStart = { stopRequested: false, announced: undefined, childless: children.length === 0 };
  const assistant = await createMessage(
    scope,
    {
      id: assistantId,
      role: ctx.side === "a" ? "assistant" : "user",
      content: result.content,
      name: null,
      toolCalls: toolCalls.length > 0 ? toolCalls : null,
      toolCallId: null,
      toolStatus: null,
      reasoningContent: result.reasoning,
      attachments: null,
      silent: false,
      depth: 0,
      side: ctx.side,
      metadata: { model: result.model.name, finish_reason: result.finishReason, step_id: req.stepId },
      subagentId: null,
    },
    async (tx, msg, emit) => {
      const fresh = (await tx.threads.get(thread.id)) ?? thread;
      const turn = fresh.state.turn ?? { side: ctx.side, active: true, steps: 0, startSeq: msg.seq - 1 };
      await tx.threads.update(thread.id, {
        state: { ...fresh.state, turn: { ...turn, steps: turn.steps + 1 }, activationSteps: fresh.state.activationSteps + 1 },
      });
      await emit(thread.id, { type: "step.completed", stepId: req.stepId, side: ctx.side, message: { id: msg.id, role: msg.role, side: ctx.side }, toolCalls: toolCalls.length });
      start.stopRequested = fresh.stopRequestedAt !== null;
      const first = toolCalls[0];
      if (first && !start.stopRequested && !signal.aborted) {
        await emit(thread.id, toolStartedEvent({ stepId: req.stepId, ctx }, first, offered.byName.get(first.function.name)));
        start.announced = first.id;
      }
    },
    { before: (tx, emit) => logAttempt(tx, emit, assistantId) },
  ).catch(async (err: unknown) => {
    // The message was not stored (a hook threw): the model's answer is still logged.
    if (deferred.attempt) await deps.events.commit((tx, emit) => logAttempt(tx, emit, null));
    throw err;
  });
  const outcome = await finishStep(deps, thread, ctx, assistant, toolCalls, signal, req.stepId, [], offered.byName, start, mayCarry ? carry : undefined);
  return outcome === "waiting" ? "stopped" : "continue";
}

/** What the step found for its tools: a pending stop, the call already announced as started, an empty registry. */
interface ToolStart {
  stopRequested: boolean;
  announced: string | undefined;
  /** The thread had no children when the step began: only its own tools add one, so its tools need not read again. */
  childless: boolean;
}

/** Run the step's tool calls (all, or the ones still missing a result) and evaluate stops. */
async function finishStep(
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
async function finishPendingStep(
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

async function endTurnWith(deps: RuntimeDeps, thread: ThreadRecord, ctx: StepContext, reason: StopReason): Promise<void> {
  const parent = await deps.events.commit(async (tx, emit) => {
    const fresh = (await tx.threads.get(thread.id)) ?? thread;
    const endSeq = await tx.messages.lastSeq(thread.id);
    return endTurnTx(fresh, ctx.agent, reason, endSeq, tx, emit, deps.secrets);
  });
  if (parent) await deps.schedule(parent);
}

/** Nothing is due: the thread waits. Returns false when a message arrived meanwhile (keep going). */
async function goIdle(deps: RuntimeDeps, thread: ThreadRecord): Promise<boolean> {
  return deps.events.commit((tx, emit) => idleTx(tx, emit, thread));
}

/**
 * The activation ends here (a safety limit, an error or a user stop); the thread waits with the reason recorded. A
 * child stopped by a limit or an error reports the failure to its parent (no terminal session tool was called).
 */
async function stopActivation(deps: RuntimeDeps, thread: ThreadRecord, reason: StopReason, detail: string): Promise<void> {
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

async function stopWithError(deps: RuntimeDeps, thread: ThreadRecord, err: unknown): Promise<void> {
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
