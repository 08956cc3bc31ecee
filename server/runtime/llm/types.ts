/**
 * The `LlmClient` port: one model call with streaming, retries and fallbacks. `llm-client.ts` implements it over the
 * spec's provider interface (`LLMProviderInterface`): the built-in providers in `providers/` are the only code that
 * imports a provider SDK; unit tests use the scripted fake in `server/runtime/testing/`.
 */
import type { ProviderGeneratedImage, ProviderToolActivity, ProviderModelInfo, ProviderReasoningDetail, ProviderToolName, ProviderWebSearchResult } from "@/server/spec";

export type ChatContentPart =
  | { type: "text"; text: string }
  | {
      type: "image_url";
      image_url: { url: string; detail?: "auto" | "low" | "high" };
      /** The attachment's path: what a model without vision reads instead of the image (never sent with it). */
      name?: string;
    };

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatContentPart[]; name?: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
      reasoning_content?: string;
      /** The provider's reasoning blocks (signed or encrypted), sent back to providers that require them. */
      reasoning_details?: ProviderReasoningDetail[];
    }
  | { role: "tool"; content: string; tool_call_id: string; name?: string };

export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A model definition resolved for a call: endpoint, key and prices. */
export interface ResolvedModel {
  /** Definition name (agents/models/<name>). */
  name: string;
  provider: string;
  /** Remote model id, sent verbatim. */
  model: string;
  baseURL?: string;
  apiKey?: string;
  /** Name of the variable the key is read from (`apiKeyEnv`, else `OPENAI_API_KEY`); named in 401 failure hints. */
  apiKeyEnv?: string;
  /** USD per million tokens. */
  inputPrice?: number;
  outputPrice?: number;
  cachedPrice?: number;
  providerOptions?: Record<string, unknown>;
  /** False when the model declares `capabilities.vision: false`: its requests carry a text line instead of each image. */
  vision?: boolean;
  /** `capabilities.maxOutputTokens`: the answer's token limit, where the provider needs one. */
  maxOutputTokens?: number;
}

export interface LlmRequest {
  /** The primary model followed by its fallbacks, in order. */
  models: ResolvedModel[];
  messages: ChatMessage[];
  tools?: ChatTool[];
  toolChoice?: "auto" | "none" | "required";
  parallelToolCalls?: boolean;
  /** The prompt's `reasoning` config; `request-body.ts` documents how it is sent. */
  reasoning?: { effort?: "low" | "medium" | "high"; maxTokens?: number; exclude?: boolean; include?: boolean } & Record<string, unknown>;
  /** Tools the provider runs itself (the prompt's `providerTools`). */
  providerTools?: ProviderToolName[];
  /** Extra body fields: the model's providerOptions merged under the prompt's. */
  providerOptions?: Record<string, unknown>;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

/** One HTTP attempt, for the request log (one row per attempt). */
export interface LlmAttempt {
  model: ResolvedModel;
  attempt: number;
  /** The request body as sent (the caller redacts secrets before persisting). */
  request: Record<string, unknown>;
  /** The same, as the JSON text that was sent. */
  requestText?: string;
  response: Record<string, unknown> | null;
  status: "success" | "error";
  error: string | null;
  usage: LlmUsage;
  cost: number;
  startedAt: Date;
  finishedAt: Date;
  latencyMs: number;
  ttftMs: number | null;
  /** False when its announcement was held back (`LlmCallOptions.announceAfterMs`): the caller still owes it. */
  announced?: boolean;
  /** What `LlmCallOptions.beforeSend` returned for this attempt (the id of its `pending` request-log row). */
  logId?: string;
}

export interface LlmResult {
  content: string | null;
  reasoning: string | null;
  /** The provider's reasoning blocks, stored with the assistant message and sent back on the next request. */
  reasoningDetails: ProviderReasoningDetail[];
  toolCalls: { id: string; name: string; arguments: string }[];
  /** Pages a provider-run web search cited (stored on the assistant message as `metadata.citations`). */
  webSearchResults: ProviderWebSearchResult[];
  /** Images the model returned (saved to the thread's files and attached to the assistant message). */
  images: ProviderGeneratedImage[];
  /** Provider-run tool calls (a web search's query, code that ran and its output), in order. */
  providerToolCalls: ProviderToolActivity[];
  finishReason: string | null;
  usage: LlmUsage;
  /** The model that answered. */
  model: ResolvedModel;
  attempts: LlmAttempt[];
}

export interface LlmCallOptions {
  signal?: AbortSignal;
  /** Streamed text and reasoning deltas as they arrive (the attempt number lets a listener discard a failed attempt). */
  onDelta?: (delta: { content?: string; reasoning?: string; attempt: number }) => void;
  /**
   * Called as each attempt is sent (announce the request here). It runs while the request is in flight, so its work
   * (a transaction) overlaps the model's latency; it settles before the attempt's first delta is forwarded and before
   * `onAttempt`. If it throws, the attempt is cancelled and the call fails with that error.
   */
  onAttemptStart?: (start: { model: ResolvedModel; attempt: number }) => void | Promise<void>;
  /**
   * Called before each attempt is sent, and awaited: write the request's log row here (`pending`), so that a request
   * cut off by a crash is still accounted for. What it returns comes back as the attempt's `logId`. If it throws, the
   * attempt is not sent and the call fails with that error.
   */
  beforeSend?: (start: { model: ResolvedModel; attempt: number; request: Record<string, unknown>; requestText: string }) => Promise<string | undefined>;
  /**
   * With `onAttemptStart`: hold each announcement back until the attempt has been in flight this long (ms), it
   * forwards its first delta, or it fails. An attempt that succeeds sooner without a delta is returned unannounced
   * (`LlmAttempt.announced` false), and the caller writes the announcement together with the outcome: one
   * transaction instead of two, with the events in the same order. A slow model is announced while it works.
   */
  announceAfterMs?: number;
  /** Called when each attempt finishes, successful or not (persist the log row here). */
  onAttempt?: (attempt: LlmAttempt) => void | Promise<void>;
  /**
   * Work that overlaps the first attempt's wait for the model (a transaction): started once, after that request has
   * left, and settled before any announcement (`onAttemptStart`), forwarded delta or `onAttempt`, and before
   * `complete` returns. If it throws, the call is cancelled and fails with that error. A client that cannot overlap
   * it runs it before its first attempt.
   */
  whileInFlight?: () => Promise<void>;
  /**
   * Hold `whileInFlight` back with the announcement (`announceAfterMs`): a first attempt that succeeds sooner without
   * streaming text never starts it, and the caller does that work in its own transaction (one transaction fewer).
   */
  holdWhileInFlight?: boolean;
}

/** The provider and endpoint whose models are listed (a model definition resolved, or a provider's defaults). */
export type ModelListTarget = Pick<ResolvedModel, "name" | "provider"> & Partial<Pick<ResolvedModel, "baseURL" | "apiKey" | "apiKeyEnv">>;

export interface LlmClient {
  complete(request: LlmRequest, opts?: LlmCallOptions): Promise<LlmResult>;
  /** The models the provider's endpoint offers (`LLMProviderInterface.listModels`). */
  listModels?(target: ModelListTarget, signal?: AbortSignal): Promise<ProviderModelInfo[]>;
}

/** Every model failed: the error says why, per model. */
export class LlmTransportError extends Error {
  readonly code = "LLM_TRANSPORT_ERROR";
  constructor(
    message: string,
    readonly attempts: LlmAttempt[],
    readonly retryable = true,
  ) {
    super(message);
  }
}
