/**
 * Builds answers in the Chat Completions wire format: the non-streaming `chat.completion` body and the list of
 * `chat.completion.chunk` objects a stream sends. Token counts are a deterministic estimate (ceil(chars / 4)) unless the
 * rule overrides them.
 */
import { messageText, type ChatRequest } from "./chat-request";
import type { ParsedRule } from "./script-schema";

export const NO_RULE_CONTENT = "(fake-llm: no rule matched)";

export interface AnswerToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** What the scripted model says, independent of how it is delivered. */
export interface Answer {
  id: string;
  created: number;
  model: string;
  content: string | null;
  reasoning: string | null;
  toolCalls: AnswerToolCall[];
  /** Pages a provider-run web search found (`respond.citations`). */
  citations: { url: string; title?: string }[];
  /** Code the provider ran (`respond.code_run`). */
  codeRun: { code: string; output: string } | null;
  /** Images the model returns (`respond.images`). */
  images: { data: string; media_type: string }[];
  finishReason: "stop" | "tool_calls";
  usage: Usage;
}

export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

function promptChars(request: ChatRequest): number {
  let chars = 0;
  for (const message of request.messages) {
    chars += messageText(message).length;
    for (const call of message.tool_calls ?? []) {
      chars += (call.function?.name ?? "").length + (call.function?.arguments ?? "").length;
    }
  }
  if (request.tools && request.tools.length > 0) chars += JSON.stringify(request.tools).length;
  return chars;
}

export function buildAnswer(request: ChatRequest, respond: ParsedRule["respond"] | null, seq: number): Answer {
  const toolCalls = (respond?.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? `call_${seq}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  const content = respond === null ? NO_RULE_CONTENT : (respond.content ?? (toolCalls.length > 0 ? null : ""));
  const reasoning = respond?.reasoning ?? null;
  const outChars =
    (content ?? "").length +
    (reasoning ?? "").length +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const override = respond?.usage ?? {};
  const prompt = override.prompt_tokens ?? estimateTokens(promptChars(request));
  const completion = override.completion_tokens ?? estimateTokens(outChars);
  return {
    id: `chatcmpl-fake-${seq}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    content,
    reasoning,
    toolCalls,
    citations: respond?.citations ?? [],
    images: respond?.images ?? [],
    codeRun: respond?.code_run ?? null,
    finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: override.cached_tokens ?? 0 },
      completion_tokens_details: {
        reasoning_tokens: override.reasoning_tokens ?? estimateTokens((reasoning ?? "").length),
      },
    },
  };
}

/** The non-streaming response body. */
export function completionBody(answer: Answer): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: answer.content, refusal: null };
  if (answer.reasoning !== null) message.reasoning_content = answer.reasoning;
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: answer.id,
    object: "chat.completion",
    created: answer.created,
    model: answer.model,
    system_fingerprint: "fake-llm",
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage: answer.usage,
  };
}

/** Word-sized pieces whose concatenation is the text (each word with the whitespace before it). */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** Argument fragments of at most 16 characters, at least two when the text has two characters or more. */
export function splitArguments(args: string): string[] {
  if (args.length < 2) return [args];
  const size = Math.min(16, Math.ceil(args.length / 2));
  const out: string[] = [];
  for (let i = 0; i < args.length; i += size) out.push(args.slice(i, i + size));
  return out;
}

type Delta = Record<string, unknown>;

function deltas(answer: Answer): Delta[] {
  const out: Delta[] = [];
  if (answer.reasoning) for (const piece of splitWords(answer.reasoning)) out.push({ reasoning_content: piece });
  if (answer.content) for (const piece of splitWords(answer.content)) out.push({ content: piece });
  answer.toolCalls.forEach((call, index) => {
    const head = { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
    out.push({ tool_calls: [head] });
    for (const fragment of splitArguments(call.arguments)) {
      out.push({ tool_calls: [{ index, function: { arguments: fragment } }] });
    }
  });
  const first = out[0];
  if (first === undefined) out.push({ role: "assistant", content: answer.content ?? "" });
  else out[0] = { role: "assistant", ...("content" in first ? {} : { content: null }), ...first };
  return out;
}

/** The chunks of a streamed answer, in order (the `[DONE]` sentinel is not included). */
export function streamChunks(answer: Answer, includeUsage: boolean): Record<string, unknown>[] {
  const base = {
    id: answer.id,
    object: "chat.completion.chunk",
    created: answer.created,
    model: answer.model,
    system_fingerprint: "fake-llm",
  };
  const usageField = includeUsage ? { usage: null } : {};
  const chunks: Record<string, unknown>[] = deltas(answer).map((delta) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
    ...usageField,
  }));
  chunks.push({
    ...base,
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: answer.finishReason }],
    ...usageField,
  });
  if (includeUsage) chunks.push({ ...base, choices: [], usage: answer.usage });
  return chunks;
}
