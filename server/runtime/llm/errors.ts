import type { LlmAttempt } from "./types";

/**
 * Errors raised inside the LLM client: the abort error callers recognise, and the two transport failures the SDK does
 * not report on its own (a stream that ends without a finish, a stream that goes silent). `LlmTransportError`, the
 * error every caller sees when all models failed, lives in `types.ts`.
 */

/** The call was aborted through its `AbortSignal`: no retry, no fallback. */
export class LlmAbortError extends Error {
  readonly code = "ABORT_ERR";
  constructor(
    message = "The LLM request was aborted.",
    /** Attempts that finished before the abort. */
    readonly attempts: readonly LlmAttempt[] = [],
  ) {
    super(message);
    this.name = "AbortError";
  }
}

/**
 * True for the error an aborted operation throws: `LlmAbortError`, a DOM `AbortError`, the openai SDK's
 * `APIUserAbortError`, or Node's `ABORT_ERR`.
 */
export function isAbortError(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { name?: unknown; code?: unknown; constructor?: { name?: unknown } };
  return (
    e.name === "AbortError" ||
    e.name === "APIUserAbortError" ||
    e.constructor?.name === "APIUserAbortError" ||
    e.code === "ABORT_ERR"
  );
}

/** The stream ended (or the socket closed) before the model sent a `finish_reason`. Retryable. */
export class StreamDroppedError extends Error {
  constructor(
    readonly chunks: number,
    cause?: unknown,
  ) {
    const why = cause instanceof Error ? `: ${describeCause(cause)}` : "";
    super(`stream dropped after ${chunks} chunk${chunks === 1 ? "" : "s"} without a finish_reason${why}`, { cause });
    this.name = "StreamDroppedError";
  }
}

/** No response, or no stream data, for `timeoutMs`. Retryable. */
export class StreamTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly chunks: number,
  ) {
    super(
      chunks === 0
        ? `timed out after ${timeoutMs} ms waiting for the response`
        : `timed out: no stream data for ${timeoutMs} ms after ${chunks} chunk${chunks === 1 ? "" : "s"}`,
    );
    this.name = "StreamTimeoutError";
  }
}

/** `TypeError: terminated (other side closed)`: the error text with its cause, as undici nests them. */
export function describeCause(err: Error): string {
  const cause = err.cause;
  if (cause instanceof Error && cause.message && !err.message.includes(cause.message)) {
    return `${err.message} (${cause.message})`;
  }
  return err.message;
}

/** The message of the innermost `cause` (`getaddrinfo ENOTFOUND host` rather than `Connection error.`). */
export function rootCauseMessage(err: Error): string {
  let current: Error = err;
  for (let depth = 0; depth < 8 && current.cause instanceof Error && current.cause.message; depth++)
    current = current.cause;
  return current.message;
}
