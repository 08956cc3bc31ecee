import { deliverQueue } from "../queue/deliver";
import { loadStepContext, type StepContext } from "../kernel/step-context";
import type { RuntimeDeps } from "../kernel/deps";
import type { QueuedMessageRecord, ThreadRecord } from "../ports";
import { startTurn } from "../kernel/turns";
import { immediateEntries, runImmediate } from "../subagents/immediate";
import { endTurnWith } from "./apply-stop";
import { carriedHistory, settleCarry, type Carry } from "./carry";
import { finishPendingStep } from "./finish-step";
import { goIdle } from "./go-idle";
import { runStep } from "./run-step";
import { INTERRUPTED_REQUEST } from "../side-loop/request-log";
import { finishUserStop, stopActivation, stopWithError } from "./stop-activation";
import { beginActivationSpan, endActivationSpan } from "../tracing";
import { depsForThread } from "../kernel/thread-definitions";

/**
 * One activation of a thread: deliver queued messages, then step the active side until nothing is due (ai_human:
 * the human's turn; dual_ai: the session ended), a stop, a safety limit, or an error. All progress is persisted as
 * it happens, so an activation that dies is resumed by the next one from the database.
 */
export async function runActivation(deps: RuntimeDeps, threadId: string): Promise<void> {
  const controller = deps.aborts.begin(threadId);
  const carry: Carry = { unstored: null };
  let failure: unknown;
  try {
    try {
      await activationLoop(deps, threadId, controller.signal, carry);
    } finally {
      await settleCarry(carry);
    }
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    endActivationSpan(threadId, failure === undefined ? undefined : { error: failure });
    deps.aborts.end(threadId, controller);
    deps.persistence.release?.(threadId);
    deps.events.forget(threadId);
  }
}

/** `carry`: the last step's final tool message, stored while the next request is in flight (see carry.ts). */
async function activationLoop(rootDeps: RuntimeDeps, threadId: string, signal: AbortSignal, carry: Carry): Promise<void> {
  const p = rootDeps.persistence;
  // The activation's step count starts from 0: reset with the first delivery (one transaction), or on its own before
  // the first step. Either is a read-modify-write of the state in one transaction (the thread row is locked), so that
  // a concurrent request (continue, stop) is never overwritten with what was read before it.
  // The thread and its pending queue, asked for together (one round trip where the database pipelines them) and with
  // them, requests logged `pending` when they were sent by an activation that died before their answer was written:
  // they stay counted (their rows), closed as `interrupted`. (Only one activation of a thread runs at a time.)
  const [first, firstQueued] = await Promise.all([
    p.threads.get(threadId),
    p.queue.pending(threadId),
    p.llmLogs.interruptPending(threadId, INTERRUPTED_REQUEST),
  ]);
  if (!first || first.status === "terminated") return;
  // What the next pass starts from when it need not read again (the first pass: the thread and queue just read).
  let latest: readonly [ThreadRecord, QueuedMessageRecord[]] | null = [first, firstQueued];
  beginActivationSpan(first);
  // A thread of an unsaved editor draft runs the draft's definitions (ordinary threads keep the runtime's deps).
  let deps: RuntimeDeps;
  try {
    deps = depsForThread(rootDeps, first);
  } catch (err) {
    return stopWithError(rootDeps, first, err);
  }
  let resetDue = true;
  const settle = () => settleCarry(carry);
  for (;;) {
    // The thread, its pending queue, its history and its registry: asked for together (one round trip where the
    // database pipelines them). The history and the registry serve the step only if nothing was written before it
    // (see `ahead` below): in a running turn that is every pass but the first.
    const carried = carry.unstored;
    const [read, queued, ahead] = latest ? [...latest, undefined] : await readPass(p, threadId);
    let thread = read;
    latest = null;
    if (!thread || thread.status === "terminated") return;
    const agent = deps.definitions().agent(thread.agentId);
    if (signal.aborted || thread.stopRequestedAt !== null) {
      // A user stop (durable; possibly requested before this activation was claimed): queued messages are kept in
      // the history, then the stop is applied before any LLM step.
      await settle();
      return finishUserStop(deps, await deliverQueue(deps, thread, agent));
    }
    const before = thread;
    thread = await activateImmediate(deps, thread, agent, settle);
    // The queue read with the thread serves while nothing was written since (immediate subagents write).
    const pendingRead = thread === before ? queued : undefined;
    thread = await deliverQueue(deps, thread, agent, { resetActivationSteps: resetDue, beforeWrite: settle, pending: pendingRead });
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
    // One read of the history serves both the check for an unfinished step and the next step's request; the registry,
    // which the step reads next, is asked for with it. Only a step that follows at once (no write in between) uses it.
    // Those read with the thread serve while this pass wrote nothing (the thread is still the one read, and the carried
    // result, if any, still unstored); else they are read again here.
    const current = ahead && thread === read && carry.unstored === carried ? ahead : undefined;
    const [listed, children] = current ?? (await Promise.all([p.messages.list(threadId, { includeSilent: true }), p.subagents.listByParent(threadId)]));
    const history = carriedHistory(listed, threadId, carry);
    // A stored step whose tools or stop evaluation did not finish (a restart, or a queued tool call): finish it.
    const pending = await finishPendingStep(deps, thread, ctx, signal, history);
    if (pending === "waiting") return;
    if (pending) continue;
    const turn = thread.state.turn;
    if (ctx.sideConfig.maxSteps !== undefined && turn.steps >= ctx.sideConfig.maxSteps) {
      await settle();
      await endTurnWith(deps, thread, ctx.agent, "max_steps");
      continue;
    }
    if (thread.state.activationSteps >= deps.settings.maxTotalSteps) {
      await settle();
      await stopActivation(deps, thread, "max_total_steps", `Reached the ceiling of ${deps.settings.maxTotalSteps} steps in one activation`);
      return;
    }
    const outcome = await runStep(deps, thread, ctx, signal, history, carry, children);
    if (outcome === "stopped") return;
  }
}


/** A pass's reads, asked for in one turn of the event loop: the thread, its pending queue, its history, its registry. */
async function readPass(p: RuntimeDeps["persistence"], threadId: string) {
  const [thread, queued, listed, children] = await Promise.all([
    p.threads.get(threadId),
    p.queue.pending(threadId),
    p.messages.list(threadId, { includeSilent: true }),
    p.subagents.listByParent(threadId),
  ]);
  return [thread, queued, [listed, children] as const] as const;
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

