/**
 * `POST /v1/messages`: the Anthropic Messages API, from the same rules. The request is read into the Chat Completions
 * view the rule conditions look at (system, user, assistant with tool calls, a `tool` message per `tool_result`), then
 * the answer is streamed as Messages events: a `thinking` block with a signature (`respond.reasoning`), the text, one
 * `tool_use` block per call (its input in JSON fragments), `message_delta` with the stop reason and usage; citations as
 * a `server_tool_use` web search and its `web_search_tool_result` block before the text. Errors use
 * Anthropic's error body. Rule timing, `cut_after_chunks` and headers work as on `/v1/chat/completions`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { ChatContext } from "./chat-handler";
import { chatRequestSchema, type ChatRequest } from "./chat-request";
import { disconnectSignal, readJson, sendJson, sleep } from "./http-util";
import { buildAnswer, splitArguments, splitWords, type Answer } from "./response-builder";
import { streamSse } from "./sse-stream";

const block = z.looseObject({ type: z.string() });
const messagesSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.int().positive(),
  system: z.union([z.string(), z.array(z.looseObject({ text: z.string() }))]).optional(),
  messages: z.array(z.looseObject({ role: z.enum(["user", "assistant"]), content: z.union([z.string(), z.array(block)]) })).min(1),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  tool_choice: z.unknown().optional(),
  stream: z.boolean().optional(),
});
type MessagesRequest = z.output<typeof messagesSchema>;
type Block = Record<string, unknown>;

const text = (b: Block) => (typeof b.text === "string" ? b.text : "");

/** The request as the Chat Completions view the rules match on. */
export function toChatView(req: MessagesRequest): ChatRequest {
  const messages: ChatRequest["messages"] = [];
  const system = typeof req.system === "string" ? req.system : (req.system ?? []).map((s) => s.text).join("\n");
  if (system) messages.push({ role: "system", content: system });
  for (const m of req.messages) {
    const blocks: Block[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    if (m.role === "assistant") {
      const calls = blocks.filter((b) => b.type === "tool_use").map((b) => ({ id: b.id, type: "function", function: { name: String(b.name), arguments: JSON.stringify(b.input ?? {}) } }));
      const said = blocks.filter((b) => b.type === "text").map(text).join("");
      messages.push({ role: "assistant", content: said || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    for (const b of blocks.filter((x) => x.type === "tool_result")) {
      const content = typeof b.content === "string" ? b.content : Array.isArray(b.content) ? (b.content as Block[]).map(text).join("") : "";
      messages.push({ role: "tool", tool_call_id: b.tool_use_id, content });
    }
    const said = blocks.filter((b) => b.type === "text").map(text).join("\n");
    if (said || blocks.some((b) => b.type === "image")) messages.push({ role: "user", content: said });
  }
  return chatRequestSchema.parse({
    model: req.model,
    messages,
    stream: req.stream === true,
    tools: (req.tools ?? []).map((t) => ({ type: "function", function: { name: t.name } })),
    tool_choice: req.tool_choice,
  });
}

/** The events of a streamed answer, in order. */
export function messageEvents(answer: Answer, seq: number): Record<string, unknown>[] {
  const usage = answer.usage;
  const out: Record<string, unknown>[] = [
    {
      type: "message_start",
      message: {
        id: `msg_fake_${seq}`, type: "message", role: "assistant", model: answer.model, content: [], stop_reason: null, stop_sequence: null,
        usage: { input_tokens: usage.prompt_tokens - usage.prompt_tokens_details.cached_tokens, cache_read_input_tokens: usage.prompt_tokens_details.cached_tokens, cache_creation_input_tokens: 0, output_tokens: 1 },
      },
    },
  ];
  let index = 0;
  if (answer.reasoning) {
    out.push({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const piece of splitWords(answer.reasoning)) out.push({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } });
    out.push({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: `fake-signature-${seq}` } });
    out.push({ type: "content_block_stop", index: index++ });
  }
  if (answer.citations.length > 0) {
    const id = `srvtoolu_fake_${seq}`;
    out.push({ type: "content_block_start", index, content_block: { type: "server_tool_use", id, name: "web_search", input: {} } });
    out.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify({ query: "scripted search" }) } });
    out.push({ type: "content_block_stop", index: index++ });
    const results = answer.citations.map((c) => ({ type: "web_search_result", url: c.url, title: c.title ?? "", encrypted_content: `fake-page-${seq}`, page_age: null }));
    out.push({ type: "content_block_start", index, content_block: { type: "web_search_tool_result", tool_use_id: id, content: results } });
    out.push({ type: "content_block_stop", index: index++ });
  }
  if (answer.codeRun) {
    const id = `srvtoolu_code_${seq}`;
    out.push({ type: "content_block_start", index, content_block: { type: "server_tool_use", id, name: "code_execution", input: {} } });
    out.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify({ code: answer.codeRun.code }) } });
    out.push({ type: "content_block_stop", index: index++ });
    const content = { type: "code_execution_result", stdout: answer.codeRun.output, stderr: "", return_code: 0, content: [] };
    out.push({ type: "content_block_start", index, content_block: { type: "code_execution_tool_result", tool_use_id: id, content } });
    out.push({ type: "content_block_stop", index: index++ });
  }
  if (answer.content) {
    out.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of splitWords(answer.content)) out.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    out.push({ type: "content_block_stop", index: index++ });
  }
  for (const call of answer.toolCalls) {
    out.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
    for (const fragment of splitArguments(call.arguments)) out.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: fragment } });
    out.push({ type: "content_block_stop", index: index++ });
  }
  const stop = answer.toolCalls.length > 0 ? "tool_use" : "end_turn";
  out.push({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.completion_tokens } });
  out.push({ type: "message_stop" });
  return out;
}

const ERROR_TYPE: Record<number, string> = { 400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error" };

function sendAnthropicError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { type: "error", error: { type: ERROR_TYPE[status] ?? "api_error", message } }, headers);
}

export async function handleMessages(req: IncomingMessage, res: ServerResponse, ctx: ChatContext): Promise<void> {
  const raw = await readJson(req);
  const parsed = messagesSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return sendAnthropicError(res, 400, `Invalid messages request: ${first ? `${first.path.join(".")}: ${first.message}` : "bad body"}`);
  }
  const request = toChatView(parsed.data);
  const seq = ctx.log.takeSeq();
  const match = ctx.script.match(request);
  // The SDK sends the key as `authorization: Bearer …` (older ones as `x-api-key`); neither value is logged.
  const key = req.headers["x-api-key"] ?? req.headers.authorization;
  const auth = typeof key === "string" && key !== "" ? "set" : undefined;
  ctx.log.append(seq, raw as Record<string, unknown>, request, { authorization: auth }, match?.index ?? null);

  const signal = disconnectSignal(res);
  const rule = match?.rule;
  const headers = { "request-id": `req_fake_${seq}`, ...(rule?.headers ?? {}) };
  await sleep(rule?.delay_ms ?? 0, signal);
  if (signal.aborted) return;
  const status = rule?.status ?? (rule?.error !== undefined ? 500 : 200);
  if (rule && status >= 400) {
    const message = typeof rule.error === "string" ? rule.error : (rule.error?.message ?? `Scripted error ${status} (fake-llm).`);
    return sendAnthropicError(res, status, message, headers);
  }
  const answer = buildAnswer(request, rule ? rule.respond : null, seq);
  if (parsed.data.stream !== true) return sendAnthropicError(res, 400, "fake-llm answers /v1/messages only with stream: true");
  await streamSse(
    res,
    messageEvents(answer, seq),
    { firstTokenDelayMs: rule?.first_token_delay_ms, tokenDelayMs: rule?.token_delay_ms, cutAfterChunks: rule?.cut_after_chunks },
    signal,
    headers,
    "anthropic",
  );
}
