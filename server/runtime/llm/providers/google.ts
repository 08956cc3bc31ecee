/**
 * The built-in `google` provider: Gemini through `@google/genai` (`models.generateContentStream`, Server-Sent Events),
 * on the Gemini API (`v1beta`, key in `x-goog-api-key`). Thought summaries stream as reasoning; thought signatures are
 * kept as reasoning details (`format: "google-gemini-v1"`, `id` naming the function call they came with) and sent back
 * on the same parts. Gemini returns no call ids, so calls get unique ones here. The SDK's own retries and automatic
 * stream continuation are off: the runtime retries (a 429's `RetryInfo` delay or `Retry-After` is honoured).
 */
import { randomUUID } from "node:crypto";
import { ApiError, GoogleGenAI, type GenerateContentResponse } from "@google/genai";
import {
  ProviderError,
  providerErrorCode,
  type LLMProviderInterface,
  type ProviderFactoryConfig,
  type ProviderModelInfo,
  type ProviderRequest,
  type ProviderStreamChunk,
  type ProviderUsage,
} from "@/server/spec";
import { parseRetryAfter } from "../retry";
import { GOOGLE_FORMAT, toGoogleParams } from "./google-body";
import { PLACEHOLDER_API_KEY } from "./openai";
import { toProviderError } from "./provider-error";
import { webFetch } from "./web-fetch";

export const GOOGLE_BASE_URL = "https://generativelanguage.googleapis.com";
const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT"]);

export function createGoogleProvider(config: ProviderFactoryConfig): LLMProviderInterface {
  // Every option given explicitly, so the SDK reads no environment variable (GOOGLE_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, …).
  // The runtime's fetch carries the connection pool and proxy; the runtime times streams out itself.
  const sdk = new GoogleGenAI({
    vertexai: false,
    apiKey: config.apiKey ?? PLACEHOLDER_API_KEY,
    apiVersion: "v1beta",
    httpOptions: { baseUrl: config.baseURL ?? GOOGLE_BASE_URL, fetch: webFetch(config.fetch) },
  });

  return {
    name: "google",
    inspectRequest: (request) => ({ body: toGoogleParams(request) as unknown as Record<string, unknown> }),
    async *stream(request: ProviderRequest, { signal, onActivity }): AsyncIterable<ProviderStreamChunk> {
      const params = toGoogleParams(request);
      // This call's fetch keeps an error's headers (`Retry-After`), which the SDK's ApiError does not.
      let errorHeaders: Headers | undefined;
      const fetch = webFetch(config.fetch, (res) => {
        if (!res.ok) errorHeaders = res.headers;
      });
      let chunks: AsyncGenerator<GenerateContentResponse>;
      try {
        chunks = await sdk.models.generateContentStream({
          ...params,
          config: { ...params.config, abortSignal: signal, automaticContinuation: false, httpOptions: { fetch } },
        });
      } catch (err) {
        throw toGoogleError(err, errorHeaders);
      }
      const usage: ProviderUsage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
      let raw: Record<string, unknown> | null = null;
      let finish: string | null = null;
      let calls = 0;
      let runs = 0;
      try {
        for await (const chunk of chunks) {
          onActivity?.();
          const u = chunk.usageMetadata;
          if (u) {
            raw = { ...u };
            usage.inputTokens = u.promptTokenCount ?? 0;
            usage.cachedTokens = u.cachedContentTokenCount ?? 0;
            usage.outputTokens = (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0);
          }
          const candidate = chunk.candidates?.[0];
          for (const part of candidate?.content?.parts ?? []) {
            let callId: string | undefined;
            if (part.functionCall) {
              callId = part.functionCall.id || `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
              yield { type: "tool-call", id: callId, name: part.functionCall.name ?? "", arguments: JSON.stringify(part.functionCall.args ?? {}) };
              calls++;
            } else if (part.executableCode) {
              runs++;
              yield { type: "provider-tool", activity: { id: `code_${runs}`, name: "code_execution", input: part.executableCode.code ?? "" } };
            } else if (part.codeExecutionResult) {
              yield { type: "provider-tool", activity: { id: `code_${runs}`, name: "code_execution", output: part.codeExecutionResult.output ?? part.codeExecutionResult.outcome ?? "" } };
            } else if (part.inlineData?.data && part.inlineData.mimeType?.startsWith("image/") && !part.thought) {
              // An image the model made (image models answer with inline image parts).
              yield { type: "image", image: { data: part.inlineData.data, mediaType: part.inlineData.mimeType } };
            } else if (typeof part.text === "string") {
              yield part.thought ? { type: "reasoning-delta", delta: part.text } : { type: "content-delta", delta: part.text };
            }
            if (part.thoughtSignature) {
              yield { type: "reasoning-detail", detail: { type: "encrypted", data: part.thoughtSignature, format: GOOGLE_FORMAT, ...(callId ? { id: callId } : {}) } };
            }
          }
          // Google Search grounding: the pages the answer rests on.
          const grounding = (candidate?.groundingMetadata?.groundingChunks ?? []).flatMap((c) => (c.web?.uri ? [{ url: c.web.uri, ...(c.web.title ? { title: c.web.title } : {}) }] : []));
          if (grounding.length > 0) yield { type: "web-search-results", results: grounding };
          for (const query of candidate?.groundingMetadata?.webSearchQueries ?? []) {
            yield { type: "provider-tool", activity: { id: `search_${query}`, name: "web_search", input: query } };
          }
          if (candidate?.finishReason) finish = finishReason(candidate.finishReason, calls);
          else if (!candidate && chunk.promptFeedback?.blockReason) finish = "content_filter";
        }
      } catch (err) {
        throw toGoogleError(err, errorHeaders);
      }
      if (finish !== null) yield { type: "finish", finishReason: finish, usage, ...(raw ? { raw } : {}) };
    },
    async listModels({ signal }): Promise<ProviderModelInfo[]> {
      const out: ProviderModelInfo[] = [];
      const pager = await sdk.models.list({ config: { abortSignal: signal, pageSize: 100 } });
      for await (const m of pager) {
        if (!m.name) continue;
        out.push({ id: m.name.replace(/^models\//, ""), ...(m.displayName ? { name: m.displayName } : {}), ...(m.inputTokenLimit ? { contextLength: m.inputTokenLimit } : {}) });
      }
      return out;
    },
  };
}

function finishReason(reason: string, calls: number): string {
  if (reason === "STOP") return calls > 0 ? "tool_calls" : "stop";
  if (reason === "MAX_TOKENS") return "length";
  if (FILTERED.has(reason)) return "content_filter";
  return reason.toLowerCase();
}

/**
 * The SDK's `ApiError` carries the status and the error body as JSON text: the message becomes `<status> <message>`,
 * and a 429's wait comes from `Retry-After` or the body's `RetryInfo.retryDelay` ("2s").
 */
function toGoogleError(err: unknown, headers: Headers | undefined): unknown {
  if (!(err instanceof ApiError) || typeof err.status !== "number") return toProviderError(err, null);
  const body = parseErrorBody(err.message);
  const message = body?.message ?? err.message;
  let retryAfterMs = parseRetryAfter(headers ?? null);
  const delay = body?.details?.map((d) => d?.retryDelay).find((d): d is string => typeof d === "string");
  if (retryAfterMs === null && delay && /^\d+(\.\d+)?s$/.test(delay)) retryAfterMs = Number(delay.slice(0, -1)) * 1000;
  return new ProviderError(message, providerErrorCode(err.status), err.status, retryAfterMs);
}

interface GoogleErrorBody {
  message?: string;
  details?: { retryDelay?: unknown }[];
}

function parseErrorBody(text: string): GoogleErrorBody | null {
  const json = text.slice(text.indexOf("{"));
  try {
    const v = JSON.parse(json) as { error?: GoogleErrorBody };
    return v.error && typeof v.error === "object" ? v.error : null;
  } catch {
    return null;
  }
}
