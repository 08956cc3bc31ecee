/**
 * The `LlmClient` over the spec's provider interface: each model of `request.models` is called through the provider
 * its definition names (`openai`, `anthropic`, `google`, or a custom provider from `agents/providers/`), one provider
 * instance per (provider, baseURL, apiKey). Every call streams. Failed attempts are retried on the same model with
 * backoff (429, 408, 409, 5xx, connection errors, timeouts, dropped streams, `ProviderError`s marked retryable, after
 * `Retry-After` when the provider sent one), then the next model is tried; other failures skip straight to the next
 * model. When every model failed an `LlmTransportError` names each model with its last error. An abort stops at once
 * with an `LlmAbortError`.
 */
import { z } from "zod";
import type { LLMProviderInterface, ProviderFactory, ProviderModelInfo, ProviderRequest } from "@/server/spec";
import { computeCost } from "./cost";
import { LlmAbortError } from "./errors";
import { allModelsFailedMessage, failureHint, type ModelFailure } from "./failure-message";
import { toProviderMessages, toProviderRequest, toProviderTools, withoutImages } from "./chat-wire";
import { requestForModel, toolNameCodec, type ToolNameCodec } from "./tool-names";
import { createDispatcher, type ProxySettings } from "./http-dispatcher";
import { createHttpFetch } from "./http-fetch";
import { BUILTIN_PROVIDERS, usesOpenAiEndpoint } from "./providers/builtin";
import { webFetch } from "./providers/web-fetch";
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
  type ModelListTarget,
  type ResolvedModel,
} from "./types";

export { isAbortError, LlmAbortError } from "./errors";
export { PLACEHOLDER_API_KEY } from "./providers/openai";

/** Provider instances kept, one per (provider, baseURL, apiKey). */
const SDK_CACHE_SIZE = 64;

/** A model names a provider that is neither built in nor defined in agents/providers/. */
export class UnknownProviderError extends Error {
  constructor(readonly provider: string, readonly modelName: string) {
    super(
      `provider "${provider}" is not known: use a built-in provider (${Object.keys(BUILTIN_PROVIDERS).join(", ")}) ` +
        `in agents/models/${modelName}.ts, or define it in agents/providers/${provider}.ts (defineProvider)`,
    );
    this.name = "UnknownProviderError";
  }
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const optionsSchema = z.object({
  defaultBaseURL: z.string().min(1).optional(),
  defaultApiKey: z.string().optional(),
  maxRetries: z.int().min(0).max(20).default(3),
  baseDelayMs: z.number().min(0).default(500),
  maxDelayMs: z.number().min(0).default(20_000),
  timeoutMs: z.number().positive().default(120_000),
});

export interface LlmClientOptions {
  /** Endpoint for `openai` models without a `baseURL` (OPENAI_BASE_URL); OpenAI's API when absent. */
  defaultBaseURL?: string;
  /** Key for `openai` models without one of their own (OPENAI_API_KEY). */
  defaultApiKey?: string;
  /**
   * The custom providers (`agents/providers/*.ts`) by name, read at each call (the registry may have reloaded). A
   * built-in name always means the built-in provider.
   */
  customProvider?: (name: string) => ProviderFactory | undefined;
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

/** @deprecated The old name of `LlmClientOptions`. */
export type OpenAiClientOptions = LlmClientOptions;

export function createLlmClient(opts: LlmClientOptions = {}): LlmClient {
  const parsed = optionsSchema.safeParse(opts);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(options)"}: ${i.message}`).join("; ");
    throw new Error(`createLlmClient: invalid options: ${issues}`);
  }
  const config = parsed.data;
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const instances = new Map<string, { factory: ProviderFactory; provider: LLMProviderInterface }>();
  // One connection pool for every provider instance of this client.
  const transport = createHttpFetch(createDispatcher(opts.proxy)) as typeof fetch;
  // Custom providers get standard responses (a web stream body), as any fetch gives.
  const standardTransport = webFetch(transport);

  const endpoint = (model: ResolvedModel) => {
    // The default key only stands in for the default variable (openai models): a model that names its own never gets it.
    const usesDefaultKey = usesOpenAiEndpoint(model.provider) && (model.apiKeyEnv === undefined || model.apiKeyEnv === DEFAULT_API_KEY_ENV);
    const apiKey = model.apiKey || (usesDefaultKey ? config.defaultApiKey : undefined) || undefined;
    const baseURL = model.baseURL || (usesOpenAiEndpoint(model.provider) ? config.defaultBaseURL : undefined) || undefined;
    return { baseURL, apiKey, keyMissing: apiKey === undefined };
  };

  const providerFor = (model: ResolvedModel, baseURL: string | undefined, apiKey: string | undefined): LLMProviderInterface => {
    const builtin = BUILTIN_PROVIDERS[model.provider];
    const factory = builtin ?? opts.customProvider?.(model.provider);
    if (!factory) throw new UnknownProviderError(model.provider, model.name);
    const key = `${model.provider}\n${baseURL ?? ""}\n${apiKey ?? ""}`;
    let entry = instances.get(key);
    // Least recently used last: keys can come from thread variables, so the cache is bounded. A reloaded custom
    // provider (a new factory) replaces its old instance.
    if (entry) instances.delete(key);
    if (!entry || entry.factory !== factory) {
      entry = { factory, provider: factory({ ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}), timeoutMs: config.timeoutMs, fetch: builtin ? transport : standardTransport }) };
    }
    instances.set(key, entry);
    if (instances.size > SDK_CACHE_SIZE) instances.delete(instances.keys().next().value as string);
    return entry.provider;
  };

  async function complete(request: LlmRequest, call: LlmCallOptions = {}): Promise<LlmResult> {
    const attempts: LlmAttempt[] = [];
    const failures: ModelFailure[] = [];
    const { signal } = call;
    let retryableFailure = false;
    let attemptNo = 0;
    // Packaged tools' names (`@scope/kit/word_count`) as a model accepts them; calls coming back are mapped back.
    const codec = toolNameCodec((request.tools ?? []).map((t) => t.function.name));
    const sent = requestForModel(request, codec);
    // Converted once for every model of the call.
    const messages = toProviderMessages(sent.messages);
    const tools = sent.tools && sent.tools.length > 0 ? toProviderTools(sent.tools) : undefined;

    for (const model of request.models) {
      const { baseURL, apiKey, keyMissing } = endpoint(model);
      let provider: LLMProviderInterface;
      try {
        provider = providerFor(model, baseURL, apiKey);
      } catch (err) {
        failures.push({ model, error: err instanceof Error ? err.message : String(err), attempts: 0 });
        continue;
      }
      const providerRequest: ProviderRequest = toProviderRequest(sent, model.vision === false ? withoutImages(messages) : messages, tools, model);
      // The wire body when the provider tells it (the openai provider serializes it once: it sends this text).
      const inspected = provider.inspectRequest?.(providerRequest);
      const body = inspected?.body ?? (providerRequest as unknown as Record<string, unknown>);
      const bodyText = inspected?.text ?? JSON.stringify(body);
      for (let tries = 1; ; tries++) {
        if (signal?.aborted) throw new LlmAbortError(undefined, attempts);
        const attempt = ++attemptNo;
        const logId = await call.beforeSend?.({ model, attempt, request: { ...body }, requestText: bodyText });
        const run = await runAttempt({
          provider,
          request: providerRequest,
          signal,
          timeoutMs: config.timeoutMs,
          onSent: call.onAttemptStart && (() => call.onAttemptStart!({ model, attempt })),
          announceAfterMs: call.announceAfterMs,
          whileSent: attempt === 1 ? call.whileInFlight : undefined,
          holdWhileSent: call.holdWhileInFlight,
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

  async function listModels(target: ModelListTarget, signal?: AbortSignal): Promise<ProviderModelInfo[]> {
    const model = target as ResolvedModel;
    const { baseURL, apiKey } = endpoint(model);
    const provider = providerFor(model, baseURL, apiKey);
    if (!provider.listModels) throw new ModelListingUnsupportedError(model.provider);
    try {
      return await provider.listModels({ signal: signal ?? new AbortController().signal });
    } catch (err) {
      const failure = classifyError(err);
      if (failure.aborted) throw new LlmAbortError();
      throw new LlmTransportError(`${model.provider}: listing models failed: ${failure.message}`, [], failure.retryable);
    }
  }

  return { complete, listModels };
}

/** A provider without `listModels`. */
export class ModelListingUnsupportedError extends Error {
  readonly code = "NOT_SUPPORTED";
  constructor(readonly provider: string) {
    super(`provider "${provider}" does not list its models (its definition has no listModels)`);
    this.name = "ModelListingUnsupportedError";
  }
}

/** @deprecated The old name of `createLlmClient`. */
export const createOpenAiClient = createLlmClient;

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
          ...(assembler.reasoningDetails.length > 0 ? { reasoning_details: assembler.reasoningDetails } : {}),
          ...(assembler.webSearchResults.length > 0 ? { web_search_results: assembler.webSearchResults } : {}),
          ...(assembler.providerToolCalls.length > 0 ? { provider_tool_calls: assembler.providerToolCalls } : {}),
          // The images' bytes stay out of the log: their type and size say what came back.
          ...(assembler.images.length > 0 ? { images: assembler.images.map((i) => ({ media_type: i.mediaType, bytes: Math.floor((i.data.length * 3) / 4) })) } : {}),
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
    reasoningDetails: assembler.reasoningDetails,
    webSearchResults: assembler.webSearchResults,
    images: assembler.images,
    providerToolCalls: assembler.providerToolCalls,
    toolCalls: assembler.toolCalls.map((c) => ({ ...c, name: codec.fromModel(c.name) })),
    finishReason: assembler.finishReason,
    usage: assembler.usage,
    model,
    attempts,
  };
}
