/**
 * The built-in `openai` provider: Chat Completions over the `openai` SDK against any compatible endpoint (OpenAI,
 * Ollama, vLLM, OpenRouter, …). Every call streams with usage. The body is built once per request (`inspectRequest`,
 * which the runtime calls first to log it) and sent as that exact text. A stream that breaks after the model finished
 * (only the usage chunk or `[DONE]` lost) still ends with `finish`: the answer is complete.
 */
import OpenAI, { APIError } from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type {
  InspectedRequest,
  LLMProviderInterface,
  ProviderCallOptions,
  ProviderFactoryConfig,
  ProviderModelInfo,
  ProviderRequest,
  ProviderStreamChunk,
} from "@/server/spec";
import { buildRequestBody } from "../request-body";
import { StreamAssembler, usageFromWire } from "../stream-assembler";

/** Sent when no key is configured, so keyless local servers (Ollama, vLLM) work; others answer 401 with a hint. */
export const PLACEHOLDER_API_KEY = "no-api-key-configured";
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** The `openai` SDK for one endpoint and key; also used by the `openai-responses` provider. */
export function createOpenAiSdk(config: ProviderFactoryConfig): OpenAI {
  // Every option given explicitly, so the SDK reads nothing from process.env.
  return new OpenAI({
    baseURL: config.baseURL || OPENAI_BASE_URL,
    apiKey: config.apiKey ?? PLACEHOLDER_API_KEY,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: config.timeoutMs,
    logLevel: "off",
    fetch: config.fetch,
  });
}

export function createOpenAiProvider(config: ProviderFactoryConfig): LLMProviderInterface {
  const sdk = createOpenAiSdk(config);
  // The body `inspectRequest` built for a request, sent as is by `stream` (serialized once).
  const built = new WeakMap<ProviderRequest, { body: Record<string, unknown>; text: string }>();
  const inspect = (request: ProviderRequest) => {
    let entry = built.get(request);
    if (!entry) {
      const body = buildRequestBody(request);
      entry = { body, text: JSON.stringify(body) };
      built.set(request, entry);
    }
    return entry;
  };

  return {
    name: "openai",
    inspectRequest(request: ProviderRequest): InspectedRequest {
      const { body, text } = inspect(request);
      return { body: { ...body }, text };
    },
    async *stream(request: ProviderRequest, { signal, onActivity }: ProviderCallOptions): AsyncIterable<ProviderStreamChunk> {
      const { body, text } = inspect(request);
      const params = body as unknown as ChatCompletionCreateParamsStreaming;
      const stream = await sdk.chat.completions.create(params, { signal, body: text, headers: { "content-type": "application/json" } });
      const assembler = new StreamAssembler();
      let textSeen = false;
      try {
        for await (const chunk of stream) {
          onActivity?.();
          const delta = assembler.add(chunk);
          // An empty text (some servers open with `""`) still makes the answer's text "" rather than none.
          if (delta.content !== undefined || (!textSeen && assembler.content !== null)) {
            textSeen = true;
            yield { type: "content-delta", delta: delta.content ?? "" };
          }
          if (delta.reasoning !== undefined) yield { type: "reasoning-delta", delta: delta.reasoning };
          for (const f of delta.fragments ?? []) {
            yield { type: "tool-call-delta", index: f.index, id: f.id, name: f.name, argumentsDelta: f.arguments };
          }
        }
      } catch (err) {
        // A break after the finish reason loses only the usage: the answer is whole. Anything else is the caller's.
        if (signal.aborted || err instanceof APIError || err instanceof SyntaxError || assembler.finishReason === null) throw err;
      }
      if (assembler.finishReason !== null) {
        yield { type: "finish", finishReason: assembler.finishReason, usage: usageFromWire(assembler.rawUsage), ...(assembler.rawUsage ? { raw: assembler.rawUsage } : {}) };
      }
    },
    async listModels({ signal }: ProviderCallOptions): Promise<ProviderModelInfo[]> {
      const out: ProviderModelInfo[] = [];
      for await (const m of sdk.models.list({ signal })) out.push({ id: m.id });
      return out;
    },
  };
}
