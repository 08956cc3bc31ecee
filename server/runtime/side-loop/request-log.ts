import type { Emit } from "../events/publisher";
import { redactDeep } from "../env/redact";
import type { RuntimeDeps } from "../kernel/deps";
import type { StepContext } from "../kernel/step-context";
import type { LlmAttempt, ResolvedModel } from "../llm/types";
import type { Stores } from "../ports";

// The request log: one row per model request, written `pending` as the request is sent and completed with its outcome,
// so that a request cut off by a crash or a stop is still counted (`/logs`, `/cost`, the Inspector).

export const CANCELLED_REQUEST = "The request was cancelled before its answer was recorded (a stop, or a failure of the step)";
export const INTERRUPTED_REQUEST = "The request was cut off by a restart before its answer was recorded";

/**
 * Run an LLM call whose requests are logged `pending` as they are sent: when it fails without logging an outcome (a
 * stop aborts it, a callback throws), its rows still pending are closed as `interrupted`. A thread has one call in
 * flight at a time, so every pending row of the thread is this call's.
 */
export async function closingPendingLogs<T>(deps: RuntimeDeps, threadId: string, call: () => Promise<T>, sent?: SentLogs): Promise<T> {
  try {
    return await call();
  } catch (err) {
    // Rows sent without waiting (see `SentLogs`) are stored first, so that they are closed too.
    await sent?.settled().catch(() => {});
    await deps.persistence.transaction((tx) => tx.llmLogs.interruptPending(threadId, CANCELLED_REQUEST));
    throw err;
  }
}

/**
 * Write each attempt's request-log row as it is sent (`pending`, the request redacted): a request cut off by a crash
 * is still counted (`/logs`, `/cost`); the thread's next activation closes it as `interrupted`.
 */
export function pendingLogger(deps: RuntimeDeps, ctx: StepContext, threadId: string, step: number | null, sent?: SentLogs) {
  return async (start: { model: ResolvedModel; attempt: number; request: Record<string, unknown>; requestText: string }): Promise<string> => {
    const now = new Date();
    const insert = (tx: Stores) =>
      tx.llmLogs.insert({
        threadId,
        messageId: null,
        side: ctx.side,
        step,
        modelName: start.model.name,
        provider: start.model.provider,
        modelId: start.model.model,
        attempt: start.attempt,
        request: redactDeep(start.request, ctx.secrets),
        // The text as sent, when there is nothing to redact in it (else the store serializes the redacted request).
        ...(ctx.secrets.length === 0 ? { requestText: start.requestText } : {}),
        response: null,
        status: "pending",
        error: null,
        inputTokens: 0,
        outputTokens: 0,
        cachedTokens: 0,
        cost: 0,
        latencyMs: null,
        ttftMs: null,
        startedAt: now,
        finishedAt: null,
      });
    // The first attempt's row: sent, and the request with it, its answer waited for while the request is in flight.
    if (sent && start.attempt === 1 && deps.persistence.transactionSent) {
      const { value, stored } = await deps.persistence.transactionSent(insert);
      sent.add(stored);
      return value.id;
    }
    return (await deps.persistence.transaction(insert)).id;
  };
}

/**
 * The request-log rows of a call sent without waiting for the database's answer (`Persistence.transactionSent`): the
 * row has left for the database before the request leaves, so a crash still leaves it counted, and its answer is
 * waited for while the request is in flight (`settled`, passed as `LlmCallOptions.whileInFlight`): before the
 * attempt's outcome is written or the call returns. A row that failed fails the call, as a failed write before the
 * request did.
 */
export class SentLogs {
  private readonly rows: Promise<void>[] = [];

  add(stored: Promise<void>): void {
    this.rows.push(stored);
  }

  /** Every row sent so far is stored (rejects with the first failure). */
  async settled(): Promise<void> {
    await Promise.all(this.rows);
  }
}

/**
 * A step's successful attempt, held back to be written in the same transaction as the assistant message it produced
 * (`writeAttemptLog` from the message's transaction): one transaction fewer per step. Failed attempts are written at
 * once, as they happen.
 */
export interface DeferredAttempt {
  attempt: LlmAttempt | null;
}

/** Persist one LLM attempt as a request-log row (secrets redacted) and announce it; see `DeferredAttempt`. */
export function attemptLogger(deps: RuntimeDeps, ctx: StepContext, threadId: string, stepId: string, step: number | null, deferred?: DeferredAttempt) {
  return async (a: LlmAttempt): Promise<void> => {
    if (deferred && a.status === "success") {
      deferred.attempt = a;
      return;
    }
    await deps.events.commit((tx, emit) => writeAttemptLog(tx, emit, ctx, { threadId, stepId, step, messageId: null }, a));
  };
}

/**
 * The outcome of an attempt on its request-log row (written `pending` as it was sent, or whole now when it was not)
 * and its `llm.response` event, in the caller's transaction.
 */
export async function writeAttemptLog(
  tx: Stores,
  emit: Emit,
  ctx: StepContext,
  at: { threadId: string; stepId: string; step: number | null; messageId: string | null },
  a: LlmAttempt,
): Promise<void> {
  const { threadId, stepId, step } = at;
  const outcome = {
    messageId: at.messageId,
    response: redactDeep(a.response, ctx.secrets),
    status: a.status,
    error: a.error === null ? null : redactDeep(a.error, ctx.secrets),
    inputTokens: a.usage.inputTokens,
    outputTokens: a.usage.outputTokens,
    cachedTokens: a.usage.cachedTokens,
    cost: a.cost,
    latencyMs: Math.round(a.latencyMs),
    ttftMs: a.ttftMs === null ? null : Math.round(a.ttftMs),
    finishedAt: a.finishedAt,
  };
  let logId = a.logId;
  if (logId !== undefined) await tx.llmLogs.complete(logId, outcome);
  else {
    const log = await tx.llmLogs.insert({
      ...outcome,
      threadId,
      side: ctx.side,
      step,
      modelName: a.model.name,
      provider: a.model.provider,
      modelId: a.model.model,
      attempt: a.attempt,
      request: redactDeep(a.request, ctx.secrets),
      // The text as sent, when there is nothing to redact in it (else the store serializes the redacted request).
      ...(ctx.secrets.length === 0 && a.requestText !== undefined ? { requestText: a.requestText } : {}),
      startedAt: a.startedAt,
    });
    logId = log.id;
  }
  await emit(threadId, {
    type: "llm.response",
    stepId,
    model: a.model.name,
    attempt: a.attempt,
    status: a.status,
    logId,
    error: a.error === null ? undefined : redactDeep(a.error, ctx.secrets),
    inputTokens: a.usage.inputTokens,
    outputTokens: a.usage.outputTokens,
    latencyMs: a.latencyMs,
    ttftMs: a.ttftMs ?? undefined,
  });
}
