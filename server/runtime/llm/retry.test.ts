import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { describe, expect, it } from "vitest";
import { LlmAbortError, StreamDroppedError, StreamTimeoutError } from "./errors";
import { backoffDelay, classifyError, isRetryableStatus, parseRetryAfter } from "./retry";

const httpError = (status: number, message: string, headers: Record<string, string> = {}) =>
  APIError.generate(status, { error: { message } }, undefined, new Headers(headers));

describe("parseRetryAfter", () => {
  it("reads seconds, an HTTP date, and prefers retry-after-ms", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:07 GMT" }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ "retry-after": "3", "retry-after-ms": "250" }), now)).toBe(250);
  });

  it("is null without a readable header", () => {
    expect(parseRetryAfter(new Headers(), 0)).toBeNull();
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), 0)).toBeNull();
    expect(parseRetryAfter(undefined, 0)).toBeNull();
  });
});

describe("backoffDelay", () => {
  const opts = { baseDelayMs: 500, maxDelayMs: 20_000 };

  it("doubles per retry with jitter between half and the full delay", () => {
    expect(backoffDelay(1, opts, null, () => 0.999999)).toBe(500);
    expect(backoffDelay(2, opts, null, () => 0.999999)).toBe(1000);
    expect(backoffDelay(3, opts, null, () => 0)).toBe(1000);
    expect(backoffDelay(4, opts, null, () => 0.5)).toBe(3000);
  });

  it("is capped at maxDelayMs", () => {
    expect(backoffDelay(30, opts, null, () => 0.999999)).toBe(20_000);
  });

  it("uses the server's wait instead, capped too", () => {
    expect(backoffDelay(1, opts, 1000, () => 0)).toBe(1000);
    expect(backoffDelay(3, opts, 0, () => 0)).toBe(0);
    expect(backoffDelay(1, opts, 3_600_000, () => 0)).toBe(20_000);
  });
});

describe("classifyError", () => {
  it("retries 429, 408, 409 and 5xx, keeping the status and the Retry-After wait", () => {
    const rate = classifyError(httpError(429, "slow down", { "retry-after": "1" }));
    expect(rate).toMatchObject({ retryable: true, status: 429, retryAfterMs: 1000, aborted: false });
    expect(rate.message).toBe("429 slow down");
    for (const status of [408, 409, 500, 502, 503, 504])
      expect(classifyError(httpError(status, "x")).retryable).toBe(true);
  });

  it("does not retry other 4xx answers", () => {
    for (const status of [400, 401, 403, 404, 422]) {
      expect(classifyError(httpError(status, "nope"))).toMatchObject({ retryable: false, status });
    }
    expect(isRetryableStatus(418)).toBe(false);
  });

  it("retries connection errors, timeouts and dropped streams", () => {
    const refused = new APIConnectionError({
      cause: new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") }),
    });
    expect(classifyError(refused)).toMatchObject({
      retryable: true,
      message: "connection error: connect ECONNREFUSED",
    });
    expect(classifyError(new APIConnectionTimeoutError()).message).toMatch(/^timeout/);
    expect(classifyError(new StreamDroppedError(3)).retryable).toBe(true);
    expect(classifyError(new StreamTimeoutError(100, 0)).retryable).toBe(true);
    const terminated = new TypeError("terminated", {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    expect(classifyError(terminated)).toMatchObject({
      retryable: true,
      message: "connection error: terminated (other side closed)",
    });
  });

  it("recognises aborts, which are never retried", () => {
    expect(classifyError(new LlmAbortError())).toMatchObject({ aborted: true, retryable: false });
    expect(classifyError(Object.assign(new Error("x"), { name: "AbortError" })).aborted).toBe(true);
  });

  it("does not retry an error event whose code is a client error, but retries other stream errors", () => {
    const bad = new APIError(undefined, { message: "context too long", code: 400 }, undefined, new Headers());
    expect(classifyError(bad).retryable).toBe(false);
    const upstream = new APIError(undefined, { message: "provider overloaded", code: 502 }, undefined, new Headers());
    expect(classifyError(upstream)).toMatchObject({ retryable: true, message: "error in stream: provider overloaded" });
  });

  it("does not retry unknown programming errors", () => {
    expect(classifyError(new RangeError("bad"))).toMatchObject({ retryable: false, message: "bad" });
  });
});
