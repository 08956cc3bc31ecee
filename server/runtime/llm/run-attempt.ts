/**
 * One streamed attempt against one model through its provider (`LLMProviderInterface.stream`): assembles the chunks,
 * forwards text and reasoning deltas, and measures latency and time to first token. A stream that goes silent for
 * `timeoutMs` is cut (its signal aborts) and reported as a timeout; a stream that ends without a `finish` chunk as a
 * dropped stream. It never retries: the caller does.
 */
import { APIError } from "openai";
import { ProviderError, type LLMProviderInterface, type ProviderRequest, type ProviderStreamChunk } from "@/server/spec";
import { LlmAbortError, StreamDroppedError, StreamTimeoutError } from "./errors";
import { ProviderAssembler } from "./provider-assembler";

export interface AttemptInput {
  provider: LLMProviderInterface;
  request: ProviderRequest;
  /** The caller's signal: an abort ends the attempt with an `LlmAbortError`. */
  signal?: AbortSignal;
  /** Longest wait for the response headers or for the next chunk. */
  timeoutMs: number;
  onDelta?: (delta: { content?: string; reasoning?: string }) => void;
  /**
   * Runs once the request is on its way (its work overlaps the model's latency). The attempt waits for it before it
   * forwards its first delta and before it returns; if it throws, the request is cancelled and the error rethrown.
   */
  onSent?: () => void | Promise<void>;
  /**
   * Run `onSent` only once the attempt has been in flight this long (ms), at its first forwarded delta, or when it
   * fails, whichever comes first; an attempt that succeeds sooner without a delta never runs it (`announced` false).
   */
  announceAfterMs?: number;
  /**
   * Work that overlaps the wait (`LlmCallOptions.whileInFlight`): started once the request has left, settled before
   * `onSent` runs, before the first delta is forwarded and before the attempt returns; if it throws, the request is
   * cancelled and the error rethrown.
   */
  whileSent?: () => Promise<void>;
  /**
   * Start `whileSent` with the held-back announcement (`announceAfterMs`) instead of at once: an attempt that succeeds
   * sooner without a delta never runs it, and the caller does that work in its own transaction instead.
   */
  holdWhileSent?: boolean;
}

export interface AttemptRun {
  assembler: ProviderAssembler;
  /** Null when the attempt produced a complete answer. */
  error: unknown;
  startedAt: Date;
  finishedAt: Date;
  latencyMs: number;
  /** Time to the first content, reasoning or tool-call delta; null when none arrived. */
  ttftMs: number | null;
  /** Whether `onSent` ran (always, unless `announceAfterMs` held it back and the attempt succeeded first). */
  announced: boolean;
}

/** Wraps an exception thrown by the caller's `onDelta`, so it is rethrown as is instead of being retried. */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

export async function runAttempt(input: AttemptInput): Promise<AttemptRun> {
  const startedAt = new Date();
  const t0 = performance.now();
  const assembler = new ProviderAssembler();
  const controller = new AbortController();
  let ttftMs: number | null = null;
  let timedOut = false;
  let streaming = false;
  // One timer per attempt, not one per chunk: a chunk only moves the deadline; the timer, when it fires early, waits
  // for the rest of the time.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline = 0;
  const expire = () => {
    const left = deadline - performance.now();
    if (left > 1) {
      timer = setTimeout(expire, left);
      return;
    }
    timedOut = true;
    controller.abort();
  };
  const arm = () => {
    deadline = performance.now() + input.timeoutMs;
    timer ??= setTimeout(expire, input.timeoutMs);
  };
  const onCallerAbort = () => controller.abort();
  input.signal?.addEventListener("abort", onCallerAbort, { once: true });

  let error: unknown = null;
  let sent: Promise<CallbackFailure | null> | null = null;
  let during: Promise<CallbackFailure | null> | null = null;
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  let iterator: AsyncIterator<ProviderStreamChunk> | undefined;
  /** The announcement, after the overlapped work (a failure of that work cancels it). */
  const afterDuring = (onSent: () => void | Promise<void>) =>
    (during ?? Promise.resolve(null)).then((failed) => failed ?? settle(Promise.resolve().then(onSent), controller));
  let duringStarted = false;
  const startDuring = () => {
    if (duringStarted) return;
    duringStarted = true;
    during = announce(input.whileSent, controller);
  };
  /** Start the held-back announcement now (if it has not started); its outcome, or the overlapped work's failure. */
  const announceNow = (): Promise<CallbackFailure | null> | null => {
    clearTimeout(holdTimer);
    startDuring();
    if (!sent && input.onSent) sent = afterDuring(input.onSent);
    return sent ?? during;
  };
  // The overlapped work waits with the announcement only where there is a held-back announcement to wait with.
  const holdDuring = input.holdWhileSent === true && input.onSent !== undefined && input.announceAfterMs !== undefined;
  try {
    if (input.signal?.aborted) throw new LlmAbortError();
    arm();
    iterator = input.provider.stream(input.request, { signal: controller.signal, onActivity: arm })[Symbol.asyncIterator]();
    // The first `next()` sends the request; the work below overlaps the wait for the answer.
    const first = iterator.next();
    if (!holdDuring) startDuring();
    if (input.onSent && input.announceAfterMs === undefined) sent = during ? afterDuring(input.onSent) : announce(input.onSent, controller);
    else if (input.onSent) holdTimer = setTimeout(announceNow, input.announceAfterMs);
    for (let item = await first; !item.done; item = await iterator.next()) {
      streaming = true;
      const chunk = item.value;
      arm();
      const delta = assembler.add(chunk);
      if (ttftMs === null && (delta.content || delta.reasoning || delta.toolCall)) ttftMs = performance.now() - t0;
      if (delta.content === undefined && delta.reasoning === undefined) continue;
      const failed = await announceNow();
      if (failed) throw failed;
      try {
        input.onDelta?.({
          ...(delta.content !== undefined ? { content: delta.content } : {}),
          ...(delta.reasoning !== undefined ? { reasoning: delta.reasoning } : {}),
        });
      } catch (err) {
        throw new CallbackFailure(err);
      }
    }
    // An SDK may end the iteration quietly when the request is aborted.
    if (input.signal?.aborted) throw new LlmAbortError();
    if (timedOut) throw new StreamTimeoutError(input.timeoutMs, assembler.chunks);
    if (assembler.finishReason === null) throw new StreamDroppedError(assembler.chunks);
  } catch (err) {
    if (err instanceof CallbackFailure) {
      controller.abort();
      throw err.error;
    }
    error = attemptError(err, input, assembler, { timedOut, streaming });
  } finally {
    // A stream left early (a failed callback, a timeout) is closed, so the provider releases its connection.
    if (iterator?.return) iterator.return(undefined).catch(() => {});
    clearTimeout(timer);
    clearTimeout(holdTimer);
    input.signal?.removeEventListener("abort", onCallerAbort);
  }
  // A failure is announced before the caller logs it; the announcement precedes whatever the caller does with the
  // outcome (its log row, its events).
  if (error !== null) announceNow();
  const failed = (during && (await during)) || (sent && (await sent));
  if (failed) throw failed.error;
  const finishedAt = new Date();
  return { assembler, error, startedAt, finishedAt, latencyMs: performance.now() - t0, ttftMs, announced: sent !== null || !input.onSent };
}

/**
 * Start the caller's `onSent` after the request has left: a `setImmediate` lets the SDK's microtasks and the socket
 * write go first. Settles with the failure (never rejects), so nothing is left unhandled while the stream is read; a
 * failure cancels the request.
 */
function announce(onSent: AttemptInput["onSent"], controller: AbortController): Promise<CallbackFailure | null> | null {
  if (!onSent) return null;
  return settle(new Promise<void>((resolve) => setImmediate(resolve)).then(onSent), controller);
}

/** The announcement's outcome: null, or its failure (which cancels the request). */
function settle(run: Promise<void>, controller: AbortController): Promise<CallbackFailure | null> {
  return run.then(
    () => null,
    (err: unknown) => {
      controller.abort();
      return new CallbackFailure(err);
    },
  );
}

function attemptError(
  err: unknown,
  input: AttemptInput,
  assembler: ProviderAssembler,
  state: { timedOut: boolean; streaming: boolean },
): unknown {
  if (input.signal?.aborted) return err instanceof LlmAbortError ? err : new LlmAbortError();
  if (state.timedOut) return new StreamTimeoutError(input.timeoutMs, assembler.chunks);
  if (!state.streaming || err instanceof ProviderError || err instanceof APIError || err instanceof SyntaxError) return err;
  if (err instanceof StreamDroppedError || err instanceof StreamTimeoutError || err instanceof LlmAbortError)
    return err;
  return new StreamDroppedError(assembler.chunks, err);
}
