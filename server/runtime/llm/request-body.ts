/**
 * The Chat Completions request body for one model, always streamed with usage. Fields in order: `model` (verbatim),
 * `messages`, `tools` (only when there are some), `tool_choice` and `parallel_tool_calls` (only with tools),
 * `reasoning_effort`, then the provider options spread in (the model's own under the request's; they cannot replace
 * `model` or `messages`), then the streaming flags, which options cannot turn off.
 */
import type { LlmRequest, ResolvedModel } from "./types";

/** Fields provider options cannot replace: the model id and the conversation. */
const PROTECTED = new Set(["model", "messages"]);

export function buildRequestBody(request: LlmRequest, model: ResolvedModel): Record<string, unknown> {
  const body: Record<string, unknown> = { model: model.model, messages: request.messages };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.reasoning?.effort !== undefined) body.reasoning_effort = request.reasoning.effort;
  const options: Record<string, unknown> = { ...(model.providerOptions ?? {}), ...(request.providerOptions ?? {}) };
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
