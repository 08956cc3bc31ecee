/**
 * The built-in `openai-responses` provider: OpenAI's Responses API through the `openai` SDK (`responses.create`,
 * streamed), on the same key and endpoint variables as `openai`. Reasoning summaries stream as reasoning; each
 * reasoning item is kept as a reasoning detail (`format: "openai-responses-v1"`, its id, summary and encrypted content)
 * and sent back as that item on the next request. Function calls stream as `function_call` items (their `call_id` is
 * the tool call id). An `error` event or a failed response mid-stream is a server error (retried).
 */
import { APIError } from "openai";
import type { ResponseCreateParamsStreaming, ResponseStreamEvent } from "openai/resources/responses/responses";
import {
  ProviderError,
  type LLMProviderInterface,
  type ProviderCallOptions,
  type ProviderFactoryConfig,
  type ProviderModelInfo,
  type ProviderRequest,
  type ProviderStreamChunk,
  type ProviderUsage,
} from "@/server/spec";
import { createOpenAiSdk } from "./openai";
import { RESPONSES_FORMAT, toResponsesBody } from "./openai-responses-body";
import { toProviderError } from "./provider-error";

export function createOpenAiResponsesProvider(config: ProviderFactoryConfig): LLMProviderInterface {
  const sdk = createOpenAiSdk(config);
  return {
    name: "openai-responses",
    inspectRequest: (request) => ({ body: toResponsesBody(request) }),
    async *stream(request: ProviderRequest, { signal, onActivity }: ProviderCallOptions): AsyncIterable<ProviderStreamChunk> {
      const body = toResponsesBody(request) as unknown as ResponseCreateParamsStreaming;
      let events: AsyncIterable<ResponseStreamEvent>;
      try {
        events = await sdk.responses.create(body, { signal });
      } catch (err) {
        throw toProviderError(err, err instanceof APIError ? err : null);
      }
      // Output items by `output_index`: the tool-call index of each function call.
      const callIndex = new Map<number, number>();
      try {
        for await (const ev of events) {
          onActivity?.();
          switch (ev.type) {
            case "response.output_item.added":
              if (ev.item.type === "function_call") {
                const index = callIndex.size;
                callIndex.set(ev.output_index, index);
                yield { type: "tool-call-delta", index, id: ev.item.call_id, name: ev.item.name, ...(ev.item.arguments ? { argumentsDelta: ev.item.arguments } : {}) };
              }
              break;
            case "response.function_call_arguments.delta": {
              const index = callIndex.get(ev.output_index);
              if (index !== undefined) yield { type: "tool-call-delta", index, argumentsDelta: ev.delta };
              break;
            }
            case "response.output_text.delta":
              yield { type: "content-delta", delta: ev.delta };
              break;
            case "response.reasoning_summary_text.delta":
            case "response.reasoning_text.delta":
              yield { type: "reasoning-delta", delta: ev.delta };
              break;
            case "response.reasoning_summary_part.added":
              // Summary parts are separate paragraphs.
              if (ev.summary_index > 0) yield { type: "reasoning-delta", delta: "\n\n" };
              break;
            case "response.output_item.done":
              if (ev.item.type === "message") {
                // Web search citations ride on the text as `url_citation` annotations.
                const results = ev.item.content.flatMap((c) => (c.type === "output_text" ? c.annotations : [])).flatMap((a) => (a.type === "url_citation" ? [{ url: a.url, ...(a.title ? { title: a.title } : {}) }] : []));
                if (results.length > 0) yield { type: "web-search-results", results };
              } else if (ev.item.type === "web_search_call") {
                const action = (ev.item as { action?: { type?: string; query?: string } }).action;
                yield { type: "provider-tool", activity: { id: ev.item.id, name: "web_search", ...(action?.query ? { input: action.query } : {}) } };
              } else if (ev.item.type === "code_interpreter_call") {
                const output = (ev.item.outputs ?? []).map((o) => (o.type === "logs" ? o.logs : "[image]")).join("\n");
                yield { type: "provider-tool", activity: { id: ev.item.id, name: "code_execution", ...(ev.item.code ? { input: ev.item.code } : {}), ...(output ? { output } : {}) } };
              } else if (ev.item.type === "image_generation_call" && ev.item.result) {
                yield { type: "image", image: { data: ev.item.result, mediaType: `image/${(ev.item as { output_format?: string }).output_format ?? "png"}` } };
              } else if (ev.item.type === "reasoning") {
                const text = ev.item.summary.map((s) => s.text).join("\n\n");
                const data = ev.item.encrypted_content ?? undefined;
                if (data || text) {
                  yield { type: "reasoning-detail", detail: { type: data ? "encrypted" : "summary", id: ev.item.id, ...(text ? { text } : {}), ...(data ? { data } : {}), format: RESPONSES_FORMAT } };
                }
              }
              break;
            case "response.completed":
            case "response.incomplete": {
              const r = ev.response;
              const u = r.usage;
              const usage: ProviderUsage = { inputTokens: u?.input_tokens ?? 0, outputTokens: u?.output_tokens ?? 0, cachedTokens: u?.input_tokens_details?.cached_tokens ?? 0 };
              const reason = r.incomplete_details?.reason;
              const finishReason = ev.type === "response.completed" ? (callIndex.size > 0 ? "tool_calls" : "stop") : reason === "max_output_tokens" ? "length" : reason === "content_filter" ? "content_filter" : (reason ?? "length");
              yield { type: "finish", finishReason, usage, raw: { ...(u ?? {}), status: r.status } };
              break;
            }
            case "response.failed":
              throw new ProviderError(`response failed: ${ev.response.error?.message ?? "no reason given"}`, "server_error");
            case "error":
              throw new ProviderError(`error in stream: ${ev.message}`, "server_error");
            default:
              break;
          }
        }
      } catch (err) {
        // An `error` event parsed by the SDK carries no status: the server failed mid-answer.
        if (err instanceof APIError && err.status === undefined && err.constructor === APIError) {
          throw new ProviderError(`error in stream: ${err.message}`, "server_error");
        }
        throw toProviderError(err, err instanceof APIError ? err : null);
      }
    },
    async listModels({ signal }: ProviderCallOptions): Promise<ProviderModelInfo[]> {
      const out: ProviderModelInfo[] = [];
      for await (const m of sdk.models.list({ signal })) out.push({ id: m.id });
      return out;
    },
  };
}
