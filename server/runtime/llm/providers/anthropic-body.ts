/**
 * A `ProviderRequest` as a Messages API body: system messages joined into `system`; tool results gathered into one
 * user message of `tool_result` blocks; an assistant message as its reasoning blocks of this provider's format
 * (first, unchanged), its text and its `tool_use` blocks; images as base64 or URL sources; `reasoning` as a thinking
 * budget (`maxTokens`, else low 2048, medium 8192, high 24576 tokens), with `max_tokens` above it; `providerTools` as
 * server tools (`web_search`, `code_execution`).
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ProviderMessageContent, ProviderReasoningDetail, ProviderRequest } from "@/server/spec";

export const ANTHROPIC_FORMAT = "anthropic-claude-v1";
/** `max_tokens` is required: the model's `capabilities.maxOutputTokens`, else this. */
const DEFAULT_MAX_TOKENS = 8192;
const BUDGET = { low: 2048, medium: 8192, high: 24576 } as const;

type Block = Anthropic.ContentBlockParam;

/** Anthropic's server tools for the prompt's `providerTools` (code execution also needs its beta header). */
const SERVER_TOOLS: Record<NonNullable<ProviderRequest["providerTools"]>[number], Record<string, unknown>> = {
  web_search: { type: "web_search_20250305", name: "web_search", max_uses: 5 },
  code_execution: { type: "code_execution_20250825", name: "code_execution" },
};
export const CODE_EXECUTION_BETA = "code-execution-2025-08-25";

export function toAnthropicBody(request: ProviderRequest): Record<string, unknown> {
  const system: string[] = [];
  const messages: Anthropic.MessageParam[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = messages[messages.length - 1];
    // Consecutive messages of one role (tool results, a note after them) become one message, as the API requires.
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const m of request.messages) {
    if (m.role === "system") system.push(m.content);
    else if (m.role === "user") push("user", typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content.map(userBlock));
    else if (m.role === "tool") push("user", [{ type: "tool_result", tool_use_id: m.toolCallId, content: m.content }]);
    else {
      const blocks: Block[] = (m.reasoningDetails ?? []).flatMap(reasoningBlock);
      if (m.content) blocks.push({ type: "text", text: m.content });
      for (const c of m.toolCalls ?? []) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: parseInput(c.arguments) });
      if (blocks.length > 0) push("assistant", blocks);
    }
  }
  const thinking = thinkingBudget(request);
  const maxTokens = Math.max(request.maxOutputTokens ?? DEFAULT_MAX_TOKENS, thinking !== null ? thinking + 1024 : 0);
  const body: Record<string, unknown> = { model: request.model, max_tokens: maxTokens, messages };
  if (system.length > 0) body.system = system.join("\n\n");
  const serverTools = (request.providerTools ?? []).map((name) => SERVER_TOOLS[name]);
  if (serverTools.length > 0 && !(request.tools && request.tools.length > 0)) body.tools = serverTools;
  if (request.tools && request.tools.length > 0) {
    body.tools = [...request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })), ...serverTools];
    const type = request.toolChoice === "required" ? "any" : (request.toolChoice ?? "auto");
    body.tool_choice = { type, ...(request.parallelToolCalls === false && type !== "none" ? { disable_parallel_tool_use: true } : {}) };
  }
  if (thinking !== null) body.thinking = { type: "enabled", budget_tokens: thinking };
  // Provider options are Messages API fields (temperature, top_k, metadata, …); they cannot replace the conversation.
  for (const [key, value] of Object.entries(request.providerOptions ?? {})) {
    if (key !== "model" && key !== "messages" && key !== "stream") body[key] = value;
  }
  return body;
}

function userBlock(part: ProviderMessageContent): Block {
  if (part.type === "text") return { type: "text", text: part.text };
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
  if (data) return { type: "image", source: { type: "base64", media_type: data[1] as "image/png", data: data[2]! } };
  return { type: "image", source: { type: "url", url: part.url } };
}

function reasoningBlock(d: ProviderReasoningDetail): Block[] {
  if (d.format !== ANTHROPIC_FORMAT) return [];
  if (d.type === "encrypted" && d.data) return [{ type: "redacted_thinking", data: d.data }];
  if (d.signature) return [{ type: "thinking", thinking: d.text ?? "", signature: d.signature }];
  return [];
}

function parseInput(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function thinkingBudget(request: ProviderRequest): number | null {
  const r = request.reasoning;
  if (!r || r.exclude === true || r.include === false) return null;
  if (typeof r.maxTokens === "number") return Math.max(1024, r.maxTokens);
  return r.effort ? BUDGET[r.effort] : null;
}
