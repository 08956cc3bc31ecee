/**
 * Retry policy of the LLM client: which failures are worth another attempt on the same model, how long to wait
 * before it (exponential backoff with jitter, capped; a server's `Retry-After` wins), and the error text recorded for
 * the attempt.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { ProviderError } from "@/server/spec";
import { describeCause, isAbortError, rootCauseMessage, StreamDroppedError, StreamTimeoutError } from "./errors";

export interface ClassifiedError {
  /** Another attempt on the same model may succeed (429, 408, 409, 5xx, connection, timeout, dropped stream). */
  retryable: boolean;
  /** HTTP status when the server answered with one. */
  status: number | null;
  /** One line for the log row and the final failure message, starting with the HTTP status when there is one. */
  message: string;
  /** Wait the server asked for (`retry-after-ms` or `Retry-After`), uncapped; null when it did not say. */
  retryAfterMs: number | null;
  aborted: boolean;
}

export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Statuses worth retrying on the same model; every other 4xx goes straight to the next fallback model. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

function networkCode(err: unknown, depth = 0): string | null {
  if (!err || typeof err !== "object" || depth > 4) return null;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
  return networkCode((err as { cause?: unknown }).cause, depth + 1);
}

/**
 * The wait a response asks for: `retry-after-ms` (milliseconds), else `Retry-After` in seconds or as an HTTP date.
 * Null when neither header is present or readable.
 */
export function parseRetryAfter(headers: Headers | undefined | null, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return null;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return null;
  return Math.max(date - now, 0);
}

/**
 * Delay before retry number `retry` (1 for the first retry): `baseDelayMs * 2^(retry-1)`, capped at `maxDelayMs`, with
 * jitter in [50%, 100%]. A server-requested wait replaces it, capped at `maxDelayMs` too.
 */
export function backoffDelay(
  retry: number,
  opts: BackoffOptions,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== null) return Math.min(Math.max(retryAfterMs, 0), opts.maxDelayMs);
  const exponential = Math.min(opts.baseDelayMs * 2 ** Math.max(retry - 1, 0), opts.maxDelayMs);
  const jitter = 0.5 + 0.5 * Math.min(Math.max(random(), 0), 1);
  return Math.round(exponential * jitter);
}

/** Sorts a failed attempt's error into retryable or not, with the text to record. */
export function classifyError(err: unknown, now: number = Date.now()): ClassifiedError {
  const base = { retryAfterMs: null, aborted: false, status: null };
  if (isAbortError(err)) return { ...base, retryable: false, aborted: true, message: "aborted" };
  if (err instanceof StreamDroppedError || err instanceof StreamTimeoutError) {
    return { ...base, retryable: true, message: err.message };
  }
  if (err instanceof ProviderError) {
    const text = err.status !== null && !err.message.startsWith(String(err.status)) ? `${err.status} ${err.message}` : err.message;
    return { ...base, status: err.status, retryable: err.retryable, retryAfterMs: err.retryAfterMs, message: text };
  }
  if (err instanceof APIConnectionTimeoutError) return { ...base, retryable: true, message: `timeout: ${err.message}` };
  if (err instanceof APIConnectionError) {
    return { ...base, retryable: true, message: `connection error: ${rootCauseMessage(err)}` };
  }
  if (err instanceof APIError) {
    const status = typeof err.status === "number" ? err.status : null;
    if (status !== null) {
      return {
        ...base,
        status,
        retryable: isRetryableStatus(status),
        retryAfterMs: parseRetryAfter(err.headers, now),
        message: err.message,
      };
    }
    // An error event inside an otherwise successful stream: a numeric 4xx code means the request itself is bad.
    const code = Number((err.error as { code?: unknown } | undefined)?.code);
    const clientError = Number.isInteger(code) && code >= 400 && code < 500 && !isRetryableStatus(code);
    return { ...base, retryable: !clientError, message: `error in stream: ${err.message}` };
  }
  if (err instanceof SyntaxError) return { ...base, retryable: true, message: `unreadable stream: ${err.message}` };
  if (err instanceof Error) {
    const code = networkCode(err);
    const transport = err.name === "TypeError" && /terminated|fetch failed|network|socket/i.test(err.message);
    if (code !== null || transport) {
      return { ...base, retryable: true, message: `connection error: ${describeCause(err)}` };
    }
    return { ...base, retryable: false, message: describeCause(err) };
  }
  return { ...base, retryable: false, message: String(err) };
}
