/**
 * A logged request body (`LlmRequestLog.request`, the wire body as the provider sent it) back as the runtime's call
 * (`LlmRequest` without its models), so that it can be sent again to the same or to another model (replay). Three
 * shapes are read: the Chat Completions body (the `openai` provider and compatible endpoints), the spec's
 * `ProviderRequest` (custom providers that do not show their wire body) and the Anthropic Messages body. Anything else
 * is a `ValidationError` that names the field.
 */
import { ValidationError } from "../errors";
import type { ChatContentPart, ChatMessage, ChatTool, LlmRequest } from "./types";

export type ReplayableRequest = Omit<LlmRequest, "models">;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : v === null || v === undefined ? "" : JSON.stringify(v));

function fail(field: string, message: string): never {
  throw new ValidationError(`request body: ${field}: ${message}`, { path: ["body", ...field.split(".")] });
}

/** The call a logged (or edited) request body describes. */
export function requestFromLog(body: unknown): ReplayableRequest {
  if (!isObj(body)) fail("(body)", "must be a JSON object: the request as the request log shows it");
  if (!Array.isArray(body.messages) || body.messages.length === 0) fail("messages", "must be a non-empty array of messages");
  const messages = body.messages as unknown[];
  const anthropic = typeof body.max_tokens === "number" && messages.some((m) => isObj(m) && Array.isArray(m.content) && m.content.some((b) => isObj(b) && ["tool_use", "tool_result", "thinking"].includes(String(b.type))));
  const out: ReplayableRequest = anthropic || isAnthropicOnly(body) ? fromAnthropic(body) : { messages: messages.map(chatMessage) };
  const tools = toolsOf(body.tools);
  if (tools.length > 0) out.tools = tools;
  const choice = toolChoiceOf(body.tool_choice ?? body.toolChoice);
  if (choice) out.toolChoice = choice;
  const parallel = body.parallel_tool_calls ?? body.parallelToolCalls;
  if (typeof parallel === "boolean") out.parallelToolCalls = parallel;
  if (isObj(body.reasoning)) out.reasoning = body.reasoning as ReplayableRequest["reasoning"];
  const options = isObj(body.providerOptions) ? { ...body.providerOptions } : extraFields(body);
  if (Object.keys(options).length > 0) out.providerOptions = options;
  return out;
}

/** Fields of the body that are not the conversation, its tools or the transport: sampling and provider settings. */
const STRUCTURAL = new Set(["model", "messages", "system", "tools", "tool_choice", "toolChoice", "parallel_tool_calls", "parallelToolCalls", "stream", "stream_options", "reasoning", "providerOptions", "maxOutputTokens"]);

function extraFields(body: Obj): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(body)) if (!STRUCTURAL.has(key)) out[key] = value;
  return out;
}

/** A body with a `system` string and no system message is an Anthropic body even without tool blocks. */
const isAnthropicOnly = (body: Obj): boolean =>
  typeof body.system === "string" && typeof body.max_tokens === "number" && !(body.messages as unknown[]).some((m) => isObj(m) && m.role === "system");

function chatMessage(m: unknown, i: number): ChatMessage {
  if (!isObj(m)) fail(`messages.${i}`, "must be an object with a role");
  switch (m.role) {
    case "system":
    case "developer":
      return { role: "system", content: str(m.content) };
    case "user":
      return { role: "user", content: typeof m.content === "string" ? m.content : partsOf(m.content, `messages.${i}.content`) };
    case "assistant": {
      const out: Extract<ChatMessage, { role: "assistant" }> = { role: "assistant", content: typeof m.content === "string" ? m.content : null };
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls.map(chatCall) : Array.isArray(m.toolCalls) ? m.toolCalls.map(providerCall) : [];
      if (calls.length > 0) out.tool_calls = calls;
      const reasoning = m.reasoning_content ?? m.reasoning;
      if (typeof reasoning === "string") out.reasoning_content = reasoning;
      const details = m.reasoning_details ?? m.reasoningDetails;
      if (Array.isArray(details)) out.reasoning_details = details as NonNullable<typeof out.reasoning_details>;
      return out;
    }
    case "tool": {
      const id = m.tool_call_id ?? m.toolCallId;
      if (typeof id !== "string") fail(`messages.${i}.tool_call_id`, "a tool message needs the id of the call it answers");
      const name = m.name ?? m.toolName;
      return { role: "tool", tool_call_id: id, content: str(m.content), ...(typeof name === "string" ? { name } : {}) };
    }
    default:
      return fail(`messages.${i}.role`, `"${String(m.role)}" is not a role (system, user, assistant or tool)`);
  }
}

function partsOf(content: unknown, field: string): ChatContentPart[] {
  if (!Array.isArray(content)) fail(field, "must be a string or an array of parts");
  return content.map((p, i): ChatContentPart => {
    if (!isObj(p)) fail(`${field}.${i}`, "must be a part object");
    if (p.type === "text") return { type: "text", text: str(p.text) };
    if (p.type === "image_url" && isObj(p.image_url)) return { type: "image_url", image_url: { url: str(p.image_url.url) } };
    if (p.type === "image" && typeof p.url === "string") return { type: "image_url", image_url: { url: p.url } };
    return fail(`${field}.${i}.type`, `"${String(p.type)}" is not a part this request can replay (text or image)`);
  });
}

const chatCall = (c: unknown) => {
  const o = isObj(c) ? c : {};
  const fn = isObj(o.function) ? o.function : {};
  return { id: str(o.id), type: "function" as const, function: { name: str(fn.name), arguments: typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {}) } };
};

const providerCall = (c: unknown) => {
  const o = isObj(c) ? c : {};
  return { id: str(o.id), type: "function" as const, function: { name: str(o.name), arguments: typeof o.arguments === "string" ? o.arguments : JSON.stringify(o.arguments ?? {}) } };
};

function fromAnthropic(body: Obj): ReplayableRequest {
  const messages: ChatMessage[] = [];
  if (typeof body.system === "string" && body.system !== "") messages.push({ role: "system", content: body.system });
  (body.messages as unknown[]).forEach((m, i) => {
    if (!isObj(m) || (m.role !== "user" && m.role !== "assistant")) fail(`messages.${i}.role`, "an Anthropic message is from user or assistant");
    const blocks: Obj[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m.content) ? m.content.filter(isObj) : [];
    if (m.role === "assistant") {
      const text = blocks.filter((b) => b.type === "text").map((b) => str(b.text)).join("");
      const calls = blocks
        .filter((b) => b.type === "tool_use")
        .map((b) => ({ id: str(b.id), type: "function" as const, function: { name: str(b.name), arguments: JSON.stringify(b.input ?? {}) } }));
      messages.push({ role: "assistant", content: text === "" ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      return;
    }
    const parts: ChatContentPart[] = [];
    for (const b of blocks) {
      if (b.type === "tool_result") messages.push({ role: "tool", tool_call_id: str(b.tool_use_id), content: str(b.content) });
      else if (b.type === "text") parts.push({ type: "text", text: str(b.text) });
      else if (b.type === "image" && isObj(b.source)) {
        const s = b.source;
        parts.push({ type: "image_url", image_url: { url: s.type === "base64" ? `data:${str(s.media_type)};base64,${str(s.data)}` : str(s.url) } });
      }
    }
    if (parts.length > 0) messages.push({ role: "user", content: parts.length === 1 && parts[0]!.type === "text" ? parts[0]!.text : parts });
  });
  return { messages };
}

function toolsOf(tools: unknown): ChatTool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) fail("tools", "must be an array");
  return tools.map((t, i): ChatTool => {
    if (!isObj(t)) fail(`tools.${i}`, "must be a tool object");
    // Chat Completions: { type: "function", function: {...} }; ProviderRequest: { name, parameters }; Anthropic: { name, input_schema }.
    const fn = isObj(t.function) ? t.function : t;
    if (typeof fn.name !== "string" || fn.name === "") fail(`tools.${i}.name`, "a tool needs a name");
    const parameters = fn.parameters ?? fn.input_schema ?? { type: "object", properties: {} };
    return { type: "function", function: { name: fn.name, description: str(fn.description), parameters: isObj(parameters) ? parameters : {} } };
  });
}

function toolChoiceOf(choice: unknown): ReplayableRequest["toolChoice"] | undefined {
  const value = isObj(choice) ? choice.type : choice;
  if (value === "auto" || value === "none" || value === "required") return value;
  if (value === "any") return "required";
  return undefined;
}
