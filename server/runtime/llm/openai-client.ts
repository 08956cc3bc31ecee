/**
 * The OpenAI-compatible `LlmClient`: Chat Completions over the `openai` SDK against any compatible endpoint (OpenAI,
 * Ollama, vLLM, OpenRouter, …), one SDK instance per (baseURL, apiKey). Every call streams. Failed attempts are
 * retried on the same model with backoff (429, 408, 409, 5xx, connection errors, timeouts, dropped streams), then the
 * next model of `request.models` is tried; other 4xx answers skip straight to the next model. When every model failed
 * an `LlmTransportError` names each model with its last error. An abort stops at once with an `LlmAbortError`.
 */
import OpenAI from "openai";
import { z } from "zod";
import { computeCost } from "./cost";
import { LlmAbortError } from "./errors";
import { allModelsFailedMessage, failureHint, type ModelFailure } from "./failure-message";
import { buildRequestBody } from "./request-body";
import { requestForModel, toolNameCodec, type ToolNameCodec } from "./tool-names";
import { createDispatcher, type ProxySettings } from "./http-dispatcher";
import { createHttpFetch } from "./http-fetch";
import { DEFAULT_API_KEY_ENV } from "./resolve-model";
import { backoffDelay, classifyError } from "./retry";
import { runAttempt, type AttemptRun } from "./run-attempt";
import {
  LlmTransportError,
  type LlmAttempt,
  type LlmCallOptions,
  type LlmClient,
  type LlmRequest,
  type LlmResult,
  type ResolvedModel,
} from "./types";

export { isAbortError, LlmAbortError } from "./errors";

/** Sent when no key is configured, so keyless local servers (Ollama, vLLM) work; others answer 401 with a hint. */
export const PLACEHOLDER_API_KEY = "no-api-key-configured";
const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** SDK instances kept, one per (baseURL, apiKey). */
const SDK_CACHE_SIZE = 64;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const optionsSchema = z.object({
  defaultBaseURL: z.string().min(1).optional(),
  defaultApiKey: z.string().optional(),
  maxRetries: z.int().min(0).max(20).default(3),
  baseDelayMs: z.number().min(0).default(500),
  maxDelayMs: z.number().min(0).default(20_000),
  timeoutMs: z.number().positive().default(120_000),
});

export interface OpenAiClientOptions {
  /** Endpoint for models without a `baseURL` (OPENAI_BASE_URL); OpenAI's API when absent. */
  defaultBaseURL?: string;
  /** Key for models without one of their own (OPENAI_API_KEY). */
  defaultApiKey?: string;
  /** Retries per model after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff delay (default 500 ms), doubled on each retry. */
  baseDelayMs?: number;
  /** Longest wait between attempts, `Retry-After` included (default 20 s). */
  maxDelayMs?: number;
  /** Longest wait for the response headers or for the next stream chunk (default 120 s). */
  timeoutMs?: number;
  /** Waits between attempts; replace it in tests. Must settle early when the signal aborts. */
  sleep?: Sleep;
  /** Proxy for the model endpoints (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, as the composition root read them). */
  proxy?: ProxySettings;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: () => number;
}

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

export function createOpenAiClient(opts: OpenAiClientOptions = {}): LlmClient {
  const parsed = optionsSchema.safeParse(opts);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(options)"}: ${i.message}`).join("; ");
    throw new Error(`createOpenAiClient: invalid options: ${issues}`);
  }
  const config = parsed.data;
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const sdks = new Map<string, OpenAI>();
  // One connection pool for every SDK instance of this client.
  const transport = createHttpFetch(createDispatcher(opts.proxy));

  const endpoint = (model: ResolvedModel) => {
    // The default key only stands in for the default variable: a model that names its own never gets it.
    const usesDefaultKey = model.apiKeyEnv === undefined || model.apiKeyEnv === DEFAULT_API_KEY_ENV;
    const apiKey = model.apiKey || (usesDefaultKey ? config.defaultApiKey : undefined) || undefined;
    return {
      baseURL: model.baseURL || config.defaultBaseURL || OPENAI_BASE_URL,
      apiKey,
      keyMissing: apiKey === undefined,
    };
  };

  const sdkFor = (baseURL: string, apiKey: string): OpenAI => {
    const key = `${baseURL}\n${apiKey}`;
    let sdk = sdks.get(key);
    if (sdk) {
      // Least recently used last: keys can come from thread variables, so the cache is bounded.
      sdks.delete(key);
      sdks.set(key, sdk);
    } else {
      // Every option given explicitly, so the SDK reads nothing from process.env.
      sdk = new OpenAI({
        baseURL,
        apiKey,
        organization: null,
        project: null,
        webhookSecret: null,
        maxRetries: 0,
        timeout: config.timeoutMs,
        logLevel: "off",
        fetch: transport,
      });
      sdks.set(key, sdk);
      if (sdks.size > SDK_CACHE_SIZE) sdks.delete(sdks.keys().next().value as string);
    }
    return sdk;
  };

  async function complete(request: LlmRequest, call: LlmCallOptions = {}): Promise<LlmResult> {
    const attempts: LlmAttempt[] = [];
    const failures: ModelFailure[] = [];
    const { signal } = call;
    let retryableFailure = false;
    let attemptNo = 0;
    const codec = toolNameCodec((request.tools ?? []).map((t) => t.function.name));
    const sent = requestForModel(request, codec);

    for (const model of request.models) {
      const { baseURL, apiKey, keyMissing } = endpoint(model);
      const sdk = sdkFor(baseURL, apiKey ?? PLACEHOLDER_API_KEY);
      const body = buildRequestBody(sent, model);
      // Serialized once: the SDK sends this text, and the request log stores it.
      const bodyText = JSON.stringify(body);
      for (let tries = 1; ; tries++) {
        if (signal?.aborted) throw new LlmAbortError(undefined, attempts);
        const attempt = ++attemptNo;
        const logId = await call.beforeSend?.({ model, attempt, request: { ...body }, requestText: bodyText });
        const run = await runAttempt({
          sdk,
          body,
          bodyText,
          signal,
          timeoutMs: config.timeoutMs,
          onSent: call.onAttemptStart && (() => call.onAttemptStart!({ model, attempt })),
          announceAfterMs: call.announceAfterMs,
          whileSent: attempt === 1 ? call.whileInFlight : undefined,
          onDelta: call.onDelta && ((delta) => call.onDelta?.({ ...delta, attempt })),
        });
        if (run.error === null) {
          const record = attemptRecord(model, attempt, body, bodyText, run, null, logId);
          attempts.push(record);
          await call.onAttempt?.(record);
          return resultOf(model, run, attempts, codec);
        }
        const failure = classifyError(run.error);
        if (failure.aborted) throw new LlmAbortError(undefined, attempts);
        const hint = failureHint(failure, model, keyMissing);
        const errorText = hint ? `${failure.message} (${hint})` : failure.message;
        const record = attemptRecord(model, attempt, body, bodyText, run, errorText, logId);
        attempts.push(record);
        await call.onAttempt?.(record);
        if (!failure.retryable || tries > config.maxRetries) {
          failures.push({ model, error: errorText, attempts: tries });
          retryableFailure ||= failure.retryable;
          break;
        }
        const delay = backoffDelay(tries, config, failure.retryAfterMs, random);
        await abortableSleep(sleep, delay, signal);
      }
    }
    throw new LlmTransportError(allModelsFailedMessage(failures), attempts, retryableFailure);
  }

  return { complete };
}

/** Runs the (possibly injected) sleep, settling as soon as the signal aborts. */
async function abortableSleep(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) throw new LlmAbortError();
  let onAbort: () => void = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function attemptRecord(
  model: ResolvedModel,
  attempt: number,
  body: Record<string, unknown>,
  bodyText: string,
  run: AttemptRun,
  error: string | null,
  logId: string | undefined,
): LlmAttempt {
  const { assembler } = run;
  const usage = assembler.usage;
  const response =
    error === null
      ? {
          content: assembler.content,
          ...(assembler.reasoning !== null ? { reasoning: assembler.reasoning } : {}),
          tool_calls: assembler.toolCalls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: c.arguments },
          })),
          finish_reason: assembler.finishReason,
          usage: assembler.rawUsage,
        }
      : null;
  return {
    model,
    attempt,
    // A copy per attempt: the caller may redact it before persisting.
    request: { ...body },
    requestText: bodyText,
    response,
    status: error === null ? "success" : "error",
    error,
    usage,
    cost: computeCost(usage, model),
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    latencyMs: run.latencyMs,
    ttftMs: run.ttftMs,
    announced: run.announced,
    ...(logId !== undefined ? { logId } : {}),
  };
}

function resultOf(model: ResolvedModel, run: AttemptRun, attempts: LlmAttempt[], codec: ToolNameCodec): LlmResult {
  const { assembler } = run;
  return {
    content: assembler.content,
    reasoning: assembler.reasoning,
    toolCalls: assembler.toolCalls.map((c) => ({ ...c, name: codec.fromModel(c.name) })),
    finishReason: assembler.finishReason,
    usage: assembler.usage,
    model,
    attempts,
  };
}
