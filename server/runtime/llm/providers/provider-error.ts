/**
 * An SDK's failure as a `ProviderError`: an HTTP answer by its status (and `Retry-After`), a broken or timed-out
 * connection as `network`/`timeout`. Aborts pass through unchanged (the runtime tells a cancel from a stream timeout).
 */
import { ProviderError, providerErrorCode } from "@/server/spec";
import { isAbortError } from "../errors";
import { parseRetryAfter } from "../retry";

export function toProviderError(err: unknown, http: { status?: unknown; headers?: unknown } | null): unknown {
  if (err instanceof ProviderError || isAbortError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  const status = typeof http?.status === "number" ? http.status : null;
  if (status !== null) {
    const headers = http?.headers instanceof Headers ? http.headers : null;
    return new ProviderError(message, providerErrorCode(status), status, parseRetryAfter(headers));
  }
  const name = err instanceof Error ? err.constructor.name : "";
  if (/Timeout/.test(name)) return new ProviderError(`timeout: ${message}`, "timeout");
  if (/Connection/.test(name) || (err instanceof TypeError && /fetch failed|terminated|network|socket/i.test(message))) {
    return new ProviderError(`connection error: ${message}`, "network");
  }
  return err;
}
