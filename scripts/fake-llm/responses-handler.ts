/**
 * `POST /v1/responses`: OpenAI's Responses API, from the same rules (streaming only). The input items are read into
 * the Chat Completions view the rule conditions look at (`instructions` and system/developer messages, user and
 * assistant messages, `function_call` items as the assistant's tool calls, a `tool` message per
 * `function_call_output`; reasoning items are left out), then the answer is streamed as Responses events: a reasoning
 * item (`respond.reasoning` as its summary, with `encrypted_content` `fake-encrypted-<seq>` when the request includes
 * `reasoning.encrypted_content`), a message item with the text, one `function_call` item per call (arguments in
 * fragments), `response.completed` with usage. Errors use the OpenAI error body; timing and `cut_after_chunks` work as
 * on `/v1/chat/completions`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { ChatContext } from "./chat-handler";
import { chatRequestSchema, type ChatRequest } from "./chat-request";
import { disconnectSignal, readJson, sendError, sleep } from "./http-util";
import { buildAnswer, splitArguments, splitWords, type Answer } from "./response-builder";
import { streamSse } from "./sse-stream";

const item = z.looseObject({ type: z.string().optional(), role: z.string().optional() });
const responsesSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(item)]),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string(), name: z.string().optional() })).optional(),
  tool_choice: z.unknown().optional(),
  include: z.array(z.string()).nullish(),
  stream: z.boolean().nullish(),
});
type ResponsesRequest = z.output<typeof responsesSchema>;
type Item = Record<string, unknown>;

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Item[]).map((p) => (typeof p.text === "string" ? p.text : "")).filter((t) => t !== "").join("\n");
}

/** The request as the Chat Completions view the rules match on. */
export function toChatView(req: ResponsesRequest): ChatRequest {
  const messages: ChatRequest["messages"] = [];
  if (req.instructions) messages.push({ role: "system", content: req.instructions });
  const items: Item[] = typeof req.input === "string" ? [{ role: "user", content: req.input }] : req.input;
  for (const it of items) {
    if (it.type === "function_call") {
      const call = { id: it.call_id, type: "function", function: { name: String(it.name), arguments: String(it.arguments ?? "") } };
      const last = messages[messages.length - 1];
      if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (it.type === "function_call_output") {
      messages.push({ role: "tool", tool_call_id: it.call_id, content: typeof it.output === "string" ? it.output : JSON.stringify(it.output) });
    } else if (typeof it.role === "string" && (it.type === undefined || it.type === "message")) {
      messages.push({ role: it.role, content: contentText(it.content) });
    }
  }
  return chatRequestSchema.parse({
    model: req.model,
    messages,
    stream: true,
    tools: (req.tools ?? []).filter((t) => t.type === "function").map((t) => ({ type: "function", function: { name: t.name } })),
    tool_choice: req.tool_choice,
  });
}

/** The events of a streamed answer, in order (each with its `sequence_number`). */
export function responseEvents(answer: Answer, seq: number, encrypted: boolean): Item[] {
  const id = `resp_fake_${seq}`;
  const response = (status: string, output: Item[], usage: Item | null) => ({ id, object: "response", created_at: answer.created, status, model: answer.model, output, usage, error: null, incomplete_details: null });
  const out: Item[] = [{ type: "response.created", response: response("in_progress", [], null) }];
  const done: Item[] = [];
  let index = 0;
  if (answer.reasoning) {
    const base = { type: "reasoning", id: `rs_fake_${seq}` };
    out.push({ type: "response.output_item.added", output_index: index, item: { ...base, summary: [] } });
    out.push({ type: "response.reasoning_summary_part.added", item_id: base.id, output_index: index, summary_index: 0, part: { type: "summary_text", text: "" } });
    for (const piece of splitWords(answer.reasoning)) out.push({ type: "response.reasoning_summary_text.delta", item_id: base.id, output_index: index, summary_index: 0, delta: piece });
    out.push({ type: "response.reasoning_summary_part.done", item_id: base.id, output_index: index, summary_index: 0, part: { type: "summary_text", text: answer.reasoning } });
    const item = { ...base, summary: [{ type: "summary_text", text: answer.reasoning }], encrypted_content: encrypted ? `fake-encrypted-${seq}` : null };
    out.push({ type: "response.output_item.done", output_index: index++, item });
    done.push(item);
  }
  if (answer.citations.length > 0) {
    const item = { type: "web_search_call", id: `ws_fake_${seq}`, status: "completed", action: { type: "search", query: "scripted search" } };
    out.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress" } });
    out.push({ type: "response.output_item.done", output_index: index++, item });
    done.push(item);
  }
  if (answer.codeRun) {
    const item = { type: "code_interpreter_call", id: `ci_fake_${seq}`, status: "completed", container_id: "cntr_fake", code: answer.codeRun.code, outputs: [{ type: "logs", logs: answer.codeRun.output }] };
    out.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", outputs: null } });
    out.push({ type: "response.output_item.done", output_index: index++, item });
    done.push(item);
  }
  if (answer.content) {
    const base = { type: "message", id: `msg_fake_${seq}`, role: "assistant" };
    out.push({ type: "response.output_item.added", output_index: index, item: { ...base, status: "in_progress", content: [] } });
    for (const piece of splitWords(answer.content)) out.push({ type: "response.output_text.delta", item_id: base.id, output_index: index, content_index: 0, delta: piece, logprobs: [] });
    const annotations = answer.citations.map((c) => ({ type: "url_citation", url: c.url, title: c.title ?? "", start_index: 0, end_index: answer.content!.length }));
    const item = { ...base, status: "completed", content: [{ type: "output_text", text: answer.content, annotations }] };
    out.push({ type: "response.output_item.done", output_index: index++, item });
    done.push(item);
  }
  answer.images.forEach((image, i) => {
    const item = { type: "image_generation_call", id: `ig_fake_${seq}_${i}`, status: "completed", result: image.data, output_format: image.media_type.slice("image/".length) };
    out.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", result: null } });
    out.push({ type: "response.output_item.done", output_index: index++, item });
    done.push(item);
  });
  answer.toolCalls.forEach((call, i) => {
    const base = { type: "function_call", id: `fc_fake_${seq}_${i}`, call_id: call.id, name: call.name };
    out.push({ type: "response.output_item.added", output_index: index, item: { ...base, arguments: "", status: "in_progress" } });
    for (const fragment of splitArguments(call.arguments)) out.push({ type: "response.function_call_arguments.delta", item_id: base.id, output_index: index, delta: fragment });
    const item = { ...base, arguments: call.arguments, status: "completed" };
    out.push({ type: "response.output_item.done", output_index: index++, item });
    done.push(item);
  });
  const u = answer.usage;
  const usage = {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details.cached_tokens },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: answer.reasoning ? u.completion_tokens_details.reasoning_tokens : 0 },
    total_tokens: u.total_tokens,
  };
  out.push({ type: "response.completed", response: response("completed", done, usage) });
  return out.map((e, i) => ({ ...e, sequence_number: i }));
}

export async function handleResponses(req: IncomingMessage, res: ServerResponse, ctx: ChatContext): Promise<void> {
  const raw = await readJson(req);
  const parsed = responsesSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return sendError(res, 400, { message: `Invalid responses request: ${first ? `${first.path.join(".")}: ${first.message}` : "bad body"}` });
  }
  const request = toChatView(parsed.data);
  const seq = ctx.log.takeSeq();
  const match = ctx.script.match(request);
  ctx.log.append(seq, raw as Record<string, unknown>, request, req.headers, match?.index ?? null);

  const signal = disconnectSignal(res);
  const rule = match?.rule;
  const headers = { "x-request-id": `req_fake_${seq}`, ...(rule?.headers ?? {}) };
  await sleep(rule?.delay_ms ?? 0, signal);
  if (signal.aborted) return;
  const status = rule?.status ?? (rule?.error !== undefined ? 500 : 200);
  if (rule && status >= 400) {
    const message = typeof rule.error === "string" ? rule.error : (rule.error?.message ?? `Scripted error ${status} (fake-llm).`);
    return sendError(res, status, { message, code: status === 429 ? "rate_limit_exceeded" : null }, headers);
  }
  if (parsed.data.stream !== true) return sendError(res, 400, { message: "fake-llm answers /v1/responses only with stream: true" });
  const answer = buildAnswer(request, rule ? rule.respond : null, seq);
  const encrypted = (parsed.data.include ?? []).includes("reasoning.encrypted_content");
  await streamSse(
    res,
    responseEvents(answer, seq, encrypted),
    { firstTokenDelayMs: rule?.first_token_delay_ms, tokenDelayMs: rule?.token_delay_ms, cutAfterChunks: rule?.cut_after_chunks },
    signal,
    headers,
    "anthropic",
  );
}
