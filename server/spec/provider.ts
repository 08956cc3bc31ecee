/**
 * The provider interface (spec `LLMProviderInterface`, `ProviderFactory`, `ProviderRequest`/`ProviderResponse`/
 * `ProviderStreamChunk`, `ProviderError`): how the runtime reaches a model. The built-in providers (`openai`,
 * `anthropic`, `google`) implement it, and a team adds its own in `agents/providers/<name>.ts` with `defineProvider`.
 * The runtime drives every provider the same way: it calls `stream`, times the chunks out, retries the attempts a
 * `ProviderError` marks retryable (honouring `retryAfterMs`), falls back to the next model, and logs each attempt with
 * the body `inspectRequest` returns and the cost of `usage`.
 */

/** A text or image part of a user message (images as a data URL or an http(s) URL). */
export type ProviderMessageContent =
  | { type: "text"; text: string }
  | {
      type: "image";
      url: string;
      mediaType?: string;
      detail?: "auto" | "low" | "high";
      /** The attachment's name (a model without vision gets a text line naming it instead). */
      name?: string;
    };

/** A tool call the model made. `arguments` is the JSON text as the model wrote it. */
export interface ProviderToolCallPart {
  id: string;
  name: string;
  arguments: string;
}

/**
 * One piece of a model's reasoning as the provider returned it. Signed (`signature`) or encrypted (`data`) blocks must
 * be sent back unchanged on the next request to the same provider; `format` names the provider's encoding
 * (e.g. `anthropic-claude-v1`, `google-gemini-v1`) so another provider can leave them out.
 */
export interface ProviderReasoningDetail {
  type: "text" | "summary" | "encrypted";
  text?: string;
  signature?: string;
  data?: string;
  format?: string;
  /** The tool call (or output item) a signed or encrypted block belongs to, where the provider ties it to one. */
  id?: string;
}

export interface ProviderSystemMessage {
  role: "system";
  content: string;
}
export interface ProviderUserMessage {
  role: "user";
  content: string | ProviderMessageContent[];
  /** The speaker's name, where the provider takes one. */
  name?: string;
}
export interface ProviderAssistantMessage {
  role: "assistant";
  content: string | null;
  toolCalls?: ProviderToolCallPart[];
  /** Reasoning text (shown in the chat). */
  reasoning?: string;
  /** The provider's reasoning blocks, sent back where the provider requires them. */
  reasoningDetails?: ProviderReasoningDetail[];
}
export interface ProviderToolMessage {
  role: "tool";
  toolCallId: string;
  /** The name of the tool that was called (some providers need it with the result). */
  toolName?: string;
  content: string;
}
export type ProviderMessage = ProviderSystemMessage | ProviderUserMessage | ProviderAssistantMessage | ProviderToolMessage;

/** A function tool the model may call (`parameters` is a JSON Schema object). */
export interface ProviderTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A page a provider-run web search found (`web_search`), kept on the answer as a citation. */
export interface ProviderWebSearchResult {
  url: string;
  title?: string;
  snippet?: string;
}

/** An image the model returned (base64 bytes), saved to the thread's files and attached to the answer. */
export interface ProviderGeneratedImage {
  data: string;
  mediaType: string;
}

/**
 * A call of a provider-run tool (a web search, a code run): what it was asked (`input`: the query, the code) and, where
 * the provider says, what came of it (`output`). Chunks with one `id` describe one call.
 */
export interface ProviderToolActivity {
  id?: string;
  name: string;
  input?: string;
  output?: string;
}

/** Tools the provider runs itself, offered by name in a prompt's `providerTools`. */
export type ProviderToolName = "web_search" | "code_execution";

/** The prompt's `reasoning` config (spec `ReasoningConfig`). */
export type ProviderReasoningConfig = {
  effort?: "low" | "medium" | "high";
  maxTokens?: number;
  exclude?: boolean;
  include?: boolean;
} & Record<string, unknown>;

export interface ProviderRequest {
  /** The provider's model id, sent verbatim. */
  model: string;
  messages: ProviderMessage[];
  tools?: ProviderTool[];
  toolChoice?: "auto" | "none" | "required";
  parallelToolCalls?: boolean;
  reasoning?: ProviderReasoningConfig;
  /** Tools the provider runs itself (the prompt's `providerTools`); their results come back as chunks. */
  providerTools?: ProviderToolName[];
  /** Largest answer, in tokens (the model's `capabilities.maxOutputTokens`). */
  maxOutputTokens?: number;
  /** The model's provider options under the prompt's, passed to the provider as it defines them. */
  providerOptions?: Record<string, unknown>;
}

export interface ProviderUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export type ProviderFinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "error" | (string & {});

/**
 * One streamed piece of an answer. Tool calls arrive as `tool-call` (whole) or as `tool-call-delta` fragments joined
 * by `index`; the stream ends with exactly one `finish` (a stream without it is a dropped stream, and is retried).
 */
export type ProviderStreamChunk =
  | { type: "content-delta"; delta: string }
  | { type: "reasoning-delta"; delta: string }
  | { type: "reasoning-detail"; detail: ProviderReasoningDetail }
  | { type: "tool-call"; id: string; name: string; arguments: string }
  | { type: "tool-call-delta"; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: "web-search-results"; results: ProviderWebSearchResult[] }
  | { type: "image"; image: ProviderGeneratedImage }
  | { type: "provider-tool"; activity: ProviderToolActivity }
  | { type: "finish"; finishReason: ProviderFinishReason; usage?: ProviderUsage; raw?: Record<string, unknown> };

/** A whole answer (what the runtime assembles from the stream). */
export interface ProviderResponse {
  content: string | null;
  reasoning: string | null;
  reasoningDetails: ProviderReasoningDetail[];
  toolCalls: ProviderToolCallPart[];
  finishReason: ProviderFinishReason | null;
  usage: ProviderUsage;
  /** Pages a provider-run web search cited. */
  webSearchResults?: ProviderWebSearchResult[];
  /** Images the model returned. */
  images?: ProviderGeneratedImage[];
  /** The provider-run tool calls of the answer. */
  providerToolCalls?: ProviderToolActivity[];
}

/** A model the provider lists (`GET /api/providers/:name/models`). */
export interface ProviderModelInfo {
  id: string;
  name?: string;
  contextLength?: number;
}

/** The wire request a provider would send, for the request log (`InspectedRequest`). */
export interface InspectedRequest {
  body: Record<string, unknown>;
  /** `body` as the provider serializes it for sending, when it does (the log stores this text). */
  text?: string;
}

export interface ProviderCallOptions {
  /** Aborts the call: the caller cancelled, or the runtime's stream timeout fired. */
  signal: AbortSignal;
  /**
   * Call it when the stream makes progress that yields no chunk (a keep-alive, a usage-only event): the runtime's
   * idle timeout counts from the last chunk or activity.
   */
  onActivity?: () => void;
}

export interface LLMProviderInterface {
  /** The provider's name (`openai`, `anthropic`, or the custom provider's file name). */
  readonly name: string;
  /** Streams one answer. Throw a `ProviderError` (or let the SDK's error through) when the call fails. */
  stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderStreamChunk>;
  /** The wire body for the request log; the runtime logs the `ProviderRequest` itself without it. */
  inspectRequest?(request: ProviderRequest): InspectedRequest;
  /** The models the endpoint offers. */
  listModels?(options: ProviderCallOptions): Promise<ProviderModelInfo[]>;
}

/** What the runtime hands a factory: the model's endpoint and key, resolved from its definition and variables. */
export interface ProviderFactoryConfig {
  apiKey?: string;
  baseURL?: string;
  /** Longest wait for an answer to start or continue (ms). */
  timeoutMs: number;
  /** The runtime's HTTP transport (its connection pool and proxy); pass it to the SDK as its `fetch`. */
  fetch: typeof fetch;
}

/** Builds a provider for one endpoint and key; the runtime keeps the instance for later calls to the same pair. */
export type ProviderFactory = (config: ProviderFactoryConfig) => LLMProviderInterface;

export type ProviderErrorCode =
  | "rate_limit"
  | "server_error"
  | "timeout"
  | "network"
  | "invalid_request"
  | "authentication"
  | "not_found"
  | "content_filter"
  | "unknown";

/** Codes the runtime retries on the same model; the others move on to the next model at once. */
const RETRYABLE: ReadonlySet<ProviderErrorCode> = new Set(["rate_limit", "server_error", "timeout", "network"]);

/** A failed provider call. `retryAfterMs` (from a `Retry-After` header) sets the wait before the retry. */
export class ProviderError extends Error {
  readonly retryable: boolean;
  constructor(
    message: string,
    readonly code: ProviderErrorCode,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
    this.retryable = RETRYABLE.has(code);
  }
}

/** The error code an HTTP status maps to. */
export function providerErrorCode(status: number): ProviderErrorCode {
  if (status === 429) return "rate_limit";
  if (status === 408) return "timeout";
  if (status === 409 || status >= 500) return "server_error";
  if (status === 401 || status === 403) return "authentication";
  if (status === 404) return "not_found";
  if (status >= 400) return "invalid_request";
  return "unknown";
}

/** A custom provider (`agents/providers/<name>.ts`): its name and factory. */
export interface ProviderDefinition<N extends string = string> {
  name: N;
  /** One line shown in the builder. */
  description?: string;
  factory: ProviderFactory;
}

/** Declares a custom provider; the file's default export. */
export function defineProvider<N extends string>(definition: ProviderDefinition<N>): ProviderDefinition<N> {
  return definition;
}

/** The providers the runtime has built in (a model's `provider` names one of these or a custom provider). */
export const BUILTIN_PROVIDER_NAMES = ["openai", "openai-responses", "anthropic", "google"] as const;

/** The provider-run tools each built-in provider offers (Chat Completions has none). */
export const BUILTIN_PROVIDER_TOOLS: Readonly<Record<string, readonly ProviderToolName[]>> = Object.freeze({
  openai: [],
  "openai-responses": ["web_search", "code_execution"],
  anthropic: ["web_search", "code_execution"],
  google: ["web_search", "code_execution"],
});
