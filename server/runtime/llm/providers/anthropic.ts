/**
 * The built-in `anthropic` provider: the Messages API through `@anthropic-ai/sdk`, streamed. Extended thinking comes
 * back as signed `thinking` blocks (and `redacted_thinking` data); both are kept as reasoning details
 * (`format: "anthropic-claude-v1"`) and sent back, unchanged and first, on the assistant message they belong to, as
 * the API requires when tools are used. `reasoning` maps to `thinking: { type: "enabled", budget_tokens }`.
 */
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { ProviderError, type LLMProviderInterface, type ProviderFactoryConfig, type ProviderModelInfo, type ProviderRequest, type ProviderStreamChunk } from "@/server/spec";
import { toAnthropicBody, ANTHROPIC_FORMAT, CODE_EXECUTION_BETA } from "./anthropic-body";
import { PLACEHOLDER_API_KEY } from "./openai";
import { toProviderError } from "./provider-error";

const FINISH: Record<string, string> = { end_turn: "stop", stop_sequence: "stop", tool_use: "tool_calls", max_tokens: "length", refusal: "content_filter", pause_turn: "stop" };

export function createAnthropicProvider(config: ProviderFactoryConfig): LLMProviderInterface {
  // Every option given explicitly, so the SDK reads no environment variable or profile.
  const sdk = new Anthropic({
    apiKey: config.apiKey ?? PLACEHOLDER_API_KEY,
    authToken: null,
    baseURL: config.baseURL ?? "https://api.anthropic.com",
    maxRetries: 0,
    timeout: config.timeoutMs,
    fetch: config.fetch,
    logLevel: "off",
    openTelemetry: false,
  });

  return {
    name: "anthropic",
    inspectRequest: (request) => ({ body: toAnthropicBody(request) }),
    async *stream(request: ProviderRequest, { signal, onActivity }): AsyncIterable<ProviderStreamChunk> {
      const body = toAnthropicBody(request);
      let events;
      try {
        const headers = request.providerTools?.includes("code_execution") ? { "anthropic-beta": CODE_EXECUTION_BETA } : undefined;
        events = await sdk.messages.create({ ...body, stream: true } as unknown as Anthropic.MessageCreateParamsStreaming, { signal, ...(headers ? { headers } : {}) });
      } catch (err) {
        throw toProviderError(err, err instanceof APIError ? err : null);
      }
      const usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
      const blocks = new Map<number, { kind: string; toolIndex?: number; text: string; signature?: string; id?: string; name?: string }>();
      let tools = 0;
      let stop: string | null = null;
      try {
        for await (const ev of events) {
          onActivity?.();
          if (ev.type === "message_start") {
            const u = ev.message.usage;
            usage.cachedTokens = u.cache_read_input_tokens ?? 0;
            usage.inputTokens = u.input_tokens + usage.cachedTokens + (u.cache_creation_input_tokens ?? 0);
            usage.outputTokens = u.output_tokens ?? 0;
          } else if (ev.type === "content_block_start") {
            const b = ev.content_block;
            if (b.type === "tool_use") {
              const toolIndex = tools++;
              blocks.set(ev.index, { kind: "tool_use", toolIndex, text: "" });
              yield { type: "tool-call-delta", index: toolIndex, id: b.id, name: b.name };
            } else if (b.type === "server_tool_use") {
              // A server-run tool's input arrives as JSON fragments, like a tool call's.
              blocks.set(ev.index, { kind: "server_tool_use", text: "", id: b.id, name: b.name });
            } else if (/code_execution_tool_result$/.test(b.type)) {
              const result = (b as { tool_use_id?: string; content?: { stdout?: string; stderr?: string } }).content;
              const output = [result?.stdout, result?.stderr].filter(Boolean).join("\n");
              const id = (b as { tool_use_id?: string }).tool_use_id;
              yield { type: "provider-tool", activity: { ...(id ? { id } : {}), name: "code_execution", ...(output ? { output } : {}) } };
            } else if (b.type === "web_search_tool_result") {
              // The pages the server-run search found (an error result carries none).
              const results = Array.isArray(b.content) ? b.content.map((r) => ({ url: r.url, ...(r.title ? { title: r.title } : {}) })) : [];
              if (results.length > 0) yield { type: "web-search-results", results };
            } else if (b.type === "redacted_thinking") {
              yield { type: "reasoning-detail", detail: { type: "encrypted", data: b.data, format: ANTHROPIC_FORMAT } };
            } else {
              blocks.set(ev.index, { kind: b.type, text: "" });
            }
          } else if (ev.type === "content_block_delta") {
            const block = blocks.get(ev.index);
            const d = ev.delta;
            if (d.type === "text_delta") yield { type: "content-delta", delta: d.text };
            else if (d.type === "thinking_delta") {
              if (block) block.text += d.thinking;
              yield { type: "reasoning-delta", delta: d.thinking };
            } else if (d.type === "signature_delta") {
              if (block) block.signature = (block.signature ?? "") + d.signature;
            } else if (d.type === "input_json_delta" && block?.toolIndex !== undefined) {
              yield { type: "tool-call-delta", index: block.toolIndex, argumentsDelta: d.partial_json };
            } else if (d.type === "input_json_delta" && block?.kind === "server_tool_use") {
              block.text += d.partial_json;
            }
          } else if (ev.type === "content_block_stop") {
            const block = blocks.get(ev.index);
            if (block?.kind === "server_tool_use") {
              yield { type: "provider-tool", activity: serverToolActivity(block.id, block.name ?? "", block.text) };
            } else if (block?.kind === "thinking") {
              yield { type: "reasoning-detail", detail: { type: "text", text: block.text, ...(block.signature ? { signature: block.signature } : {}), format: ANTHROPIC_FORMAT } };
            }
          } else if (ev.type === "message_delta") {
            if (ev.delta.stop_reason) stop = ev.delta.stop_reason;
            if (typeof ev.usage.output_tokens === "number") usage.outputTokens = ev.usage.output_tokens;
          } else if (ev.type === "message_stop") {
            yield { type: "finish", finishReason: FINISH[stop ?? ""] ?? stop ?? "stop", usage, raw: { ...usage, stop_reason: stop } };
          }
        }
      } catch (err) {
        // An `error` event inside the stream (overloaded, …) carries no status: the server failed mid-answer.
        if (err instanceof APIError && err.status === undefined && !(err instanceof Anthropic.APIConnectionError) && !(err instanceof Anthropic.APIUserAbortError)) {
          throw new ProviderError(`error in stream: ${err.message}`, "server_error");
        }
        throw toProviderError(err, err instanceof APIError ? err : null);
      }
    },
    async listModels({ signal }): Promise<ProviderModelInfo[]> {
      const out: ProviderModelInfo[] = [];
      for await (const m of sdk.models.list({}, { signal })) out.push({ id: m.id, name: m.display_name });
      return out;
    },
  };
}

/** A server tool's call: a web search by its query, a code run by its code (else the input as sent). */
function serverToolActivity(id: string | undefined, name: string, json: string) {
  let input: Record<string, unknown> = {};
  try {
    input = JSON.parse(json || "{}") as Record<string, unknown>;
  } catch {
    // A cut input stays as its text.
  }
  const web = name === "web_search";
  const text = web ? input.query : (input.code ?? input.command);
  return { ...(id ? { id } : {}), name: web ? "web_search" : "code_execution", ...(typeof text === "string" ? { input: text } : json ? { input: json } : {}) };
}
