import { isAbortError } from "../abort";
import { StaleThreadError } from "../errors";
import type { Emit } from "../events/publisher";
import { newId } from "../ids";
import type { RuntimeDeps } from "../kernel/deps";
import { activeHooks } from "../kernel/hook-runner";
import { resolveAttachments } from "../files/attachments";
import { createMessage } from "../kernel/message-writer";
import type { StepContext } from "../kernel/step-context";
import type { MessageRecord, NewMessage, Stores, SubagentRecord, ThreadRecord, ToolCallRecord } from "../ports";
import { buildStepRequest, callModel, heldAnnouncement, type LeadEvent } from "../side-loop/llm-step";
import { CANCELLED_REQUEST, writeAttemptLog, type DeferredAttempt } from "../side-loop/request-log";
import { offeredTools } from "../subagents/offered";
import { registryMessage } from "../subagents/texts";
import { toolStartedEvent } from "../tools/dispatch";
import { ResultStoredElsewhere, type UnstoredResult } from "../tools/result-message";
import { foldedInto, settleCarry, type Carry } from "./carry";
import { finishStep, type ToolStart } from "./finish-step";
import { finishUserStop, stopWithError } from "./stop-activation";

/** One LLM step of the active side: request, stored response, tools, stop evaluation. */
export async function runStep(
  deps: RuntimeDeps,
  thread: ThreadRecord,
  ctx: StepContext,
  signal: AbortSignal,
  history: MessageRecord[],
  carry: Carry,
  /** The registry, read with the history just before this step (nothing written since). */
  registry?: SubagentRecord[],
): Promise<"continue" | "stopped"> {
  const startedAt = performance.now();
  const children = registry ?? (await deps.persistence.subagents.listByParent(thread.id));
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
  // The previous step's last tool message is stored while this request is in flight, before anything else, from the
  // moment the request is announced (ANNOUNCE_AFTER_MS). An answer that comes sooner takes it into its own
  // transaction, first there (`folded`): one transaction fewer, the same writes and events in the same order.
  let folded: UnstoredResult | null = null;
  try {
    const carried = carry.unstored;
    let overlapped = false;
    const whileInFlight = carried
      ? () => {
          overlapped = true;
          return settleCarry(carry);
        }
      : undefined;
    result = await callModel(deps, ctx, thread, req, step, signal, lead, deferred, whileInFlight, true);
    if (carried && !overlapped && carry.unstored === carried) folded = carried;
    else await settleCarry(carry);
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
  // Images the model made go to the thread's files (/attachments/generated-….png) and onto the answer.
  const images =
    result.images?.length > 0
      ? await resolveAttachments(deps.persistence.files, thread.id, result.images.map((img, i) => ({ name: `generated-${assistantId.slice(-8)}-${i + 1}.${imageExtension(img.mediaType)}`, mimeType: img.mediaType, data: img.data })))
      : null;
  // Read in the message's transaction: whether a stop is pending, and so whether the first tool starts right away
  // (its `tool.started` is stored in that same transaction).
  const start: ToolStart = { stopRequested: false, announced: undefined, childless: children.length === 0 };
  const answer: NewMessage = {
    id: assistantId,
    role: ctx.side === "a" ? "assistant" : "user",
    content: result.content,
    name: null,
    toolCalls: toolCalls.length > 0 ? toolCalls : null,
    toolCallId: null,
    toolStatus: null,
    reasoningContent: result.reasoning,
    attachments: images,
    silent: false,
    depth: 0,
    side: ctx.side,
    metadata: {
      model: result.model.name,
      finish_reason: result.finishReason,
      step_id: req.stepId,
      // Signed or encrypted reasoning blocks: the next request sends them back (side-loop/perspective.ts).
      ...(result.reasoningDetails?.length ? { reasoning_details: result.reasoningDetails } : {}),
      // Pages a provider-run web search cited (URL, title), shown under the answer.
      ...(result.webSearchResults?.length ? { citations: result.webSearchResults } : {}),
      // Calls of provider-run tools (a web search's query, code and its output), shown with the answer.
      ...(result.providerToolCalls?.length ? { provider_tool_calls: result.providerToolCalls.map(({ id: _id, ...call }) => call) } : {}),
    },
    subagentId: null,
  };
  const inAnswerTx = async (tx: Stores, msg: MessageRecord, emit: Emit) => {
    start.announced = undefined;
    const fresh = (await tx.threads.get(thread.id)) ?? thread;
    // The fence: a terminate or stop committed while the request was in flight (by any process) discards the
    // answer, as the abort would have; the row is locked, so neither can commit between this check and ours.
    if (fresh.status === "terminated" || fresh.stopRequestedAt !== null) throw new StepDiscarded();
    const turn = fresh.state.turn ?? { side: ctx.side, active: true, steps: 0, startSeq: msg.seq - 1 };
    // Not waited for before the tool's attempt is counted: where the database pipelines them, both go in one round
    // trip (in this order, in this transaction; a failure of either fails the step's transaction).
    const counted = tx.threads.update(thread.id, {
      state: { ...fresh.state, turn: { ...turn, steps: turn.steps + 1 }, activationSteps: fresh.state.activationSteps + 1 },
    });
    counted.catch(() => {});
    await emit(thread.id, { type: "step.completed", stepId: req.stepId, side: ctx.side, message: { id: msg.id, role: msg.role, side: ctx.side }, toolCalls: toolCalls.length, durationMs: Math.round((performance.now() - startedAt) * 100) / 100 });
    start.stopRequested = fresh.stopRequestedAt !== null;
    const first = toolCalls[0];
    // A call that may wait for a human approval is started by its tool dispatch, once it may run.
    const gated = first !== undefined && offered.byName.get(first.function.name)?.kind === "tool" && ctx.defs.tool(first.function.name)?.approval !== undefined;
    if (first && !gated && !start.stopRequested && !signal.aborted) {
      const attempt = await tx.toolCallRuns.start(msg.id, first.id);
      await emit(thread.id, toolStartedEvent({ stepId: req.stepId, ctx }, first, offered.byName.get(first.function.name), attempt));
      start.announced = { id: first.id, attempt };
    }
    await counted;
  };
  // Optimistic first (the thread as this process last saw it, checked rather than read: one round trip where the
  // database is remote); if another writer changed the thread meanwhile, again with the thread read under its lock.
  // `once`: the callbacks take the attempt and the announcement, so a transaction the database ended (a deadlock)
  // is not run again as it is but fails stale, and is run again here once they are given back.
  const storeAnswer = (fold: UnstoredResult | null, optimistic: boolean) =>
    createMessage(
      scope,
      answer,
      inAnswerTx,
      fold
        ? {
            alongside: async (tx, emit) => {
              await fold.writeIn(tx, emit);
              await logAttempt(tx, emit, assistantId);
            },
            optimistic,
            once: true,
          }
        : { before: (tx, emit) => logAttempt(tx, emit, assistantId), optimistic, once: true },
    );
  // The answer with the carried result folded in; if that transaction rolls back, the result is stored on its own
  // first (or found stored), and what the transaction took but did not store is given back: the answer's attempt and
  // its held announcement.
  const storeFolding = async () => {
    const [attemptBefore, leadBefore] = [deferred.attempt, lead.done];
    const giveBack = () => ([deferred.attempt, lead.done] = [attemptBefore, leadBefore]);
    try {
      const m = await storeUntilFresh(
        (optimistic) => storeAnswer(folded, optimistic),
        giveBack,
      );
      if (folded) foldedInto(carry, folded);
      return m;
    } catch (err) {
      giveBack();
      if (folded) await settleCarry(carry);
      if (err instanceof ResultStoredElsewhere) return storeUntilFresh(() => storeAnswer(null, false), giveBack);
      throw err;
    }
  };
  let assistant: MessageRecord | null = null;
  try {
    assistant = await storeFolding();
  } catch (err) {
    if (!(err instanceof StepDiscarded)) {
      // The message was not stored (a hook threw): the model's answer is still logged.
      if (deferred.attempt) await deps.events.commit((tx, emit) => logAttempt(tx, emit, null));
      throw err;
    }
    // Nothing of the step was stored; its request is closed as cancelled, like one a stop aborted.
    await deps.persistence.transaction((tx) => tx.llmLogs.interruptPending(thread.id, CANCELLED_REQUEST));
  }
  // Discarded: the loop reads the thread again and ends (terminated) or applies the stop.
  if (!assistant) return "continue";
  const outcome = await finishStep(deps, thread, ctx, assistant, toolCalls, signal, req.stepId, [], offered.byName, start, mayCarry ? carry : undefined);
  return outcome === "waiting" ? "stopped" : "continue";
}

/** Stale transactions (nothing committed) run again at most this many times in all, the thread read under its lock. */
const STALE_TRIES = 4;

/**
 * `store(true)` (optimistic), then, while it fails with `StaleThreadError` (another writer changed the thread, or the
 * database ended the transaction: nothing committed), `giveBack()` and `store(false)` again.
 */
async function storeUntilFresh<T>(store: (optimistic: boolean) => Promise<T>, giveBack: () => void): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await store(i === 1);
    } catch (err) {
      if (!(err instanceof StaleThreadError) || i >= STALE_TRIES) throw err;
      giveBack();
    }
  }
}

/** Thrown in a step's transaction when the thread was terminated or stopped meanwhile: the transaction rolls back. */
class StepDiscarded extends Error {
  constructor() {
    super("the step's answer was discarded: the thread was stopped or terminated while it was in flight");
  }
}

/** `image/png` → `png`, `image/jpeg` → `jpg`; anything unusual → `bin`. */
function imageExtension(mediaType: string): string {
  const sub = /^image\/([a-z0-9.+-]+)$/i.exec(mediaType)?.[1]?.toLowerCase();
  if (sub === "jpeg") return "jpg";
  return sub && /^[a-z0-9]+$/.test(sub) ? sub : "bin";
}
