/**
 * The runtime's request (`LlmRequest`, Chat Completions-shaped messages as the side loop builds them) as the spec's
 * `ProviderRequest`, and back: every provider receives the same `ProviderRequest`; the `openai` provider turns it into
 * the Chat Completions body again (`toChatMessages`), field for field, so its wire body is what it always was.
 */
import { mapReasoningLevel, type ProviderMessage, type ProviderMessageContent, type ProviderRequest, type ProviderTool } from "@/server/spec";
import type { ChatContentPart, ChatMessage, ChatTool, LlmRequest, ResolvedModel } from "./types";

export function toProviderMessages(messages: readonly ChatMessage[]): ProviderMessage[] {
  return messages.map((m): ProviderMessage => {
    switch (m.role) {
      case "system":
        return m;
      case "user":
        return {
          role: "user",
          content: typeof m.content === "string" ? m.content : m.content.map(toProviderPart),
          ...(m.name !== undefined ? { name: m.name } : {}),
        };
      case "assistant":
        return {
          role: "assistant",
          content: m.content,
          ...(m.tool_calls ? { toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) } : {}),
          ...(m.reasoning_content !== undefined ? { reasoning: m.reasoning_content } : {}),
          ...(m.reasoning_details !== undefined ? { reasoningDetails: m.reasoning_details } : {}),
        };
      case "tool":
        return { role: "tool", toolCallId: m.tool_call_id, content: m.content, ...(m.name !== undefined ? { toolName: m.name } : {}) };
    }
  });
}

function toProviderPart(part: ChatContentPart): ProviderMessageContent {
  if (part.type === "text") return part;
  return { type: "image", url: part.image_url.url, ...(part.image_url.detail ? { detail: part.image_url.detail } : {}), ...(part.name ? { name: part.name } : {}) };
}

export function toChatMessages(messages: readonly ProviderMessage[]): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    switch (m.role) {
      case "system":
        return m;
      case "user":
        return {
          role: "user",
          content: typeof m.content === "string" ? m.content : m.content.map(toChatPart),
          ...(m.name !== undefined ? { name: m.name } : {}),
        };
      case "assistant": {
        const out: ChatMessage = { role: "assistant", content: m.content };
        if (m.toolCalls) {
          out.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
        }
        if (m.reasoning !== undefined) out.reasoning_content = m.reasoning;
        return out;
      }
      case "tool":
        return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

function toChatPart(part: ProviderMessageContent): ChatContentPart {
  if (part.type === "text") return part;
  return { type: "image_url", image_url: { url: part.url, ...(part.detail ? { detail: part.detail } : {}) } };
}

/**
 * The messages for a model without vision (`capabilities.vision: false`): each image part becomes a text line naming
 * its attachment. Messages without images are kept as they are.
 */
export function withoutImages(messages: ProviderMessage[]): ProviderMessage[] {
  return messages.map((m) => {
    if (m.role !== "user" || typeof m.content === "string" || !m.content.some((p) => p.type === "image")) return m;
    const content = m.content.map((p): ProviderMessageContent => (p.type === "image" ? { type: "text", text: `[image attachment: ${p.name ?? "image"} (not shown: this model has no vision)]` } : p));
    return { ...m, content };
  });
}

export const toProviderTools = (tools: readonly ChatTool[]): ProviderTool[] =>
  tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));

export const toChatTools = (tools: readonly ProviderTool[]): ChatTool[] =>
  tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));

/** The call's request for one model: the model's provider options under the prompt's. */
export function toProviderRequest(request: LlmRequest, messages: ProviderMessage[], tools: ProviderTool[] | undefined, model: ResolvedModel): ProviderRequest {
  const out: ProviderRequest = { model: model.model, messages };
  if (tools && tools.length > 0) {
    out.tools = tools;
    if (request.toolChoice !== undefined) out.toolChoice = request.toolChoice;
    if (request.parallelToolCalls !== undefined) out.parallelToolCalls = request.parallelToolCalls;
  }
  if (request.reasoning !== undefined) out.reasoning = request.reasoning;
  if (request.providerTools && request.providerTools.length > 0) out.providerTools = request.providerTools;
  if (model.maxOutputTokens !== undefined) out.maxOutputTokens = model.maxOutputTokens;
  if (model.providerOptions !== undefined || request.providerOptions !== undefined) {
    out.providerOptions = { ...modelOptionsUnderReasoning(model.providerOptions, request.reasoning), ...(request.providerOptions ?? {}) };
  }
  return out;
}

/** The model's options without the fields the prompt's `reasoning` sets (`mapReasoningLevel`): the prompt beats the model. */
function modelOptionsUnderReasoning(
  options: Record<string, unknown> | undefined,
  reasoning: LlmRequest["reasoning"],
): Record<string, unknown> {
  if (!options || !reasoning) return options ?? {};
  const mapped = mapReasoningLevel(reasoning);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (!(key in mapped)) out[key] = value;
  return out;
}
