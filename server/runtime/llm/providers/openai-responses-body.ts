/**
 * A `ProviderRequest` as a Responses API body (`POST /responses`, streamed, `store: false`: the whole conversation
 * is sent each time). System messages become `system` input messages; users `input_text`/`input_image` parts; an
 * assistant message its reasoning items first (this provider's format, with their encrypted content, as the API
 * requires to continue a reasoning model's turn), then its text and its `function_call` items; tool results
 * `function_call_output` items. `reasoning` maps to `reasoning: { effort, summary: "auto" }` (a `maxTokens` budget to
 * the nearest effort: up to 2048 low, up to 8192 medium, above high) and asks for `reasoning.encrypted_content`.
 * `providerTools` become hosted tools (`web_search`, `code_interpreter`).
 */
import type { ProviderMessageContent, ProviderReasoningDetail, ProviderRequest } from "@/server/spec";

export const RESPONSES_FORMAT = "openai-responses-v1";
/** Fields provider options cannot replace: the model id, the conversation and streaming. */
const PROTECTED = new Set(["model", "input", "stream"]);

type Item = Record<string, unknown>;

/** The Responses API's hosted tools for the prompt's `providerTools`. */
const HOSTED: Record<NonNullable<ProviderRequest["providerTools"]>[number], Item> = {
  web_search: { type: "web_search" },
  code_execution: { type: "code_interpreter", container: { type: "auto" } },
};

export function toResponsesBody(request: ProviderRequest): Record<string, unknown> {
  const input: Item[] = [];
  for (const m of request.messages) {
    if (m.role === "system") input.push({ role: "system", content: m.content });
    else if (m.role === "user") input.push({ role: "user", content: typeof m.content === "string" ? m.content : m.content.map(userPart) });
    else if (m.role === "tool") input.push({ type: "function_call_output", call_id: m.toolCallId, output: m.content });
    else {
      for (const d of m.reasoningDetails ?? []) {
        const item = reasoningItem(d);
        if (item) input.push(item);
      }
      if (m.content) input.push({ role: "assistant", content: m.content });
      for (const c of m.toolCalls ?? []) input.push({ type: "function_call", call_id: c.id, name: c.name, arguments: c.arguments });
    }
  }
  const body: Record<string, unknown> = { model: request.model, input, store: false };
  const tools = request.tools ?? [];
  const hosted = (request.providerTools ?? []).map((name) => HOSTED[name]);
  if (tools.length > 0 || hosted.length > 0) {
    body.tools = [...tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.parameters, strict: false })), ...hosted];
  }
  if (tools.length > 0) {
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  const reasoning = reasoningParams(request);
  if (reasoning) {
    body.reasoning = reasoning;
    body.include = ["reasoning.encrypted_content"];
  }
  for (const [key, value] of Object.entries(request.providerOptions ?? {})) {
    if (!PROTECTED.has(key)) body[key] = value;
  }
  body.stream = true;
  return body;
}

function userPart(part: ProviderMessageContent): Item {
  if (part.type === "text") return { type: "input_text", text: part.text };
  return { type: "input_image", image_url: part.url, detail: part.detail ?? "auto" };
}

/** A reasoning item of this provider, sent back only with its encrypted content (without it the API cannot use it). */
function reasoningItem(d: ProviderReasoningDetail): Item | null {
  if (d.format !== RESPONSES_FORMAT || !d.data || !d.id) return null;
  return { type: "reasoning", id: d.id, summary: d.text ? [{ type: "summary_text", text: d.text }] : [], encrypted_content: d.data };
}

function reasoningParams(request: ProviderRequest): Record<string, unknown> | null {
  const r = request.reasoning;
  if (!r) return null;
  const effort = r.effort ?? (typeof r.maxTokens === "number" ? (r.maxTokens <= 2048 ? "low" : r.maxTokens <= 8192 ? "medium" : "high") : undefined);
  const summary = r.exclude === true || r.include === false ? undefined : "auto";
  if (!effort && !summary) return null;
  return { ...(effort ? { effort } : {}), ...(summary ? { summary } : {}) };
}
