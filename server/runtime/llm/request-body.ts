/**
 * The Chat Completions request body for one model, always streamed with usage. Fields in order: `model` (verbatim),
 * `messages`, `tools` (only when there are some), `tool_choice` and `parallel_tool_calls` (only with tools), then
 * the model's provider options, the prompt's `reasoning` mapped (below), the request's provider options (so the
 * prompt beats the model, and both may override the reasoning fields; neither can replace `model` or `messages`),
 * then the streaming flags, which options cannot turn off.
 *
 * `reasoning` (spec `ReasoningConfig`) as far as an OpenAI-compatible endpoint allows (`mapReasoningLevel` of the
 * spec module):
 * - `effort` → `reasoning_effort` (the standard Chat Completions field: OpenAI, vLLM, OpenRouter, …);
 * - `maxTokens`, `exclude`, `include` or any provider-specific key → a `reasoning` object in OpenRouter's unified
 *   shape: `max_tokens` (a token budget replaces the effort level: providers take one or the other, so
 *   `reasoning_effort` is then left out), else `effort`; `exclude: true` keeps reasoning out of the response
 *   (`include: false` means the same; `include: true` sends `exclude: false`; an explicit `exclude` wins); other keys
 *   are passed as written. Endpoints that know no `reasoning` object (OpenAI's own) reject it, so an effort-only
 *   config sends `reasoning_effort` alone.
 */
import { mapReasoningLevel, type ProviderRequest } from "@/server/spec";
import { toChatMessages, toChatTools } from "./chat-wire";

/** Fields provider options cannot replace: the model id and the conversation. */
const PROTECTED = new Set(["model", "messages"]);

export function buildRequestBody(request: ProviderRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, messages: toChatMessages(request.messages) };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = toChatTools(tools);
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  const options: Record<string, unknown> = { ...mapReasoningLevel(request.reasoning), ...(request.providerOptions ?? {}) };
  for (const [key, value] of Object.entries(options)) {
    if (!PROTECTED.has(key)) body[key] = value;
  }
  const streamOptions = options.stream_options;
  body.stream = true;
  body.stream_options = {
    ...(streamOptions !== null && typeof streamOptions === "object" ? streamOptions : {}),
    include_usage: true,
  };
  return body;
}
