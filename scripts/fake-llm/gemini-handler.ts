/**
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`: the Gemini API, from the same rules. The request is read
 * into the Chat Completions view the rule conditions look at (system instruction, user, model turns with function
 * calls, a `tool` message per `functionResponse`), then the answer is streamed as `GenerateContentResponse` chunks:
 * thought parts (`thought: true`, `respond.reasoning`), the text, one `functionCall` part per call (whole, without an
 * id, as Gemini sends them), the last chunk with `finishReason` and `usageMetadata`. With reasoning, a thought
 * signature (`fake-thought-signature-<seq>`) rides on the first function call, else on the last text part. Errors use
 * Google's error body (a 429 with `Retry-After` also carries `RetryInfo`). Rule timing and `cut_after_chunks` work as
 * on `/v1/chat/completions`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { ChatContext } from "./chat-handler";
import { chatRequestSchema, type ChatRequest } from "./chat-request";
import { disconnectSignal, readJson, sendJson, sleep } from "./http-util";
import { buildAnswer, splitWords, type Answer } from "./response-builder";
import { streamSse } from "./sse-stream";

const part = z.looseObject({});
const geminiSchema = z.looseObject({
  contents: z.array(z.looseObject({ role: z.string().optional(), parts: z.array(part) })).min(1),
  systemInstruction: z.looseObject({ parts: z.array(part) }).optional(),
  tools: z.array(z.looseObject({ functionDeclarations: z.array(z.looseObject({ name: z.string() })).optional() })).optional(),
  toolConfig: z.unknown().optional(),
  generationConfig: z.looseObject({}).optional(),
});
type GeminiRequest = z.output<typeof geminiSchema>;
type Part = Record<string, unknown>;

const textOf = (parts: Part[]) => parts.filter((p) => typeof p.text === "string" && p.thought !== true).map((p) => p.text as string).join("");

/** The request as the Chat Completions view the rules match on. */
export function toChatView(model: string, req: GeminiRequest): ChatRequest {
  const messages: ChatRequest["messages"] = [];
  const system = req.systemInstruction ? textOf(req.systemInstruction.parts) : "";
  if (system) messages.push({ role: "system", content: system });
  for (const c of req.contents) {
    if (c.role === "model") {
      const calls = c.parts
        .filter((p) => p.functionCall)
        .map((p) => {
          const call = p.functionCall as { id?: string; name?: string; args?: unknown };
          return { id: call.id, type: "function", function: { name: String(call.name), arguments: JSON.stringify(call.args ?? {}) } };
        });
      messages.push({ role: "assistant", content: textOf(c.parts) || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    for (const p of c.parts.filter((x) => x.functionResponse)) {
      const r = p.functionResponse as { id?: string; name?: string; response?: { result?: unknown } };
      const result = r.response?.result;
      messages.push({ role: "tool", tool_call_id: r.id, name: r.name, content: typeof result === "string" ? result : JSON.stringify(r.response ?? {}) });
    }
    const said = textOf(c.parts);
    if (said || c.parts.some((p) => p.inlineData || p.fileData)) messages.push({ role: "user", content: said });
  }
  return chatRequestSchema.parse({
    model,
    messages,
    stream: true,
    tools: (req.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) => ({ type: "function", function: { name: f.name } })),
    tool_choice: req.toolConfig,
  });
}

/** The chunks of a streamed answer, in order. */
export function geminiChunks(answer: Answer, seq: number): Record<string, unknown>[] {
  const signature = `fake-thought-signature-${seq}`;
  const parts: Part[] = [];
  if (answer.reasoning) for (const piece of splitWords(answer.reasoning)) parts.push({ text: piece, thought: true });
  if (answer.codeRun) {
    parts.push({ executableCode: { language: "PYTHON", code: answer.codeRun.code } });
    parts.push({ codeExecutionResult: { outcome: "OUTCOME_OK", output: answer.codeRun.output } });
  }
  if (answer.content) for (const piece of splitWords(answer.content)) parts.push({ text: piece });
  for (const image of answer.images) parts.push({ inlineData: { mimeType: image.media_type, data: image.data } });
  answer.toolCalls.forEach((call, i) => {
    parts.push({ functionCall: { name: call.name, args: JSON.parse(call.arguments || "{}") as unknown }, ...(answer.reasoning && i === 0 ? { thoughtSignature: signature } : {}) });
  });
  if (parts.length === 0) parts.push({ text: "" });
  const last = parts[parts.length - 1]!;
  if (answer.reasoning && answer.toolCalls.length === 0) last.thoughtSignature = signature;
  const grounding =
    answer.citations.length > 0
      ? { groundingMetadata: { webSearchQueries: ["scripted search"], groundingChunks: answer.citations.map((c) => ({ web: { uri: c.url, title: c.title ?? "" } })) } }
      : {};
  const usage = answer.usage;
  const thoughts = answer.reasoning ? usage.completion_tokens_details.reasoning_tokens : 0;
  return parts.map((p, i) => {
    const end = i === parts.length - 1;
    return {
      candidates: [{ content: { role: "model", parts: [p] }, index: 0, ...(end ? { finishReason: "STOP", ...grounding } : {}) }],
      modelVersion: answer.model,
      responseId: `fake-response-${seq}`,
      ...(end
        ? {
            usageMetadata: {
              promptTokenCount: usage.prompt_tokens,
              candidatesTokenCount: Math.max(usage.completion_tokens - thoughts, 0),
              thoughtsTokenCount: thoughts,
              cachedContentTokenCount: usage.prompt_tokens_details.cached_tokens,
              totalTokenCount: usage.prompt_tokens + usage.completion_tokens,
            },
          }
        : {}),
    };
  });
}

const STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE" };

function sendGoogleError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const retry = headers["retry-after"];
  const details = status === 429 && retry ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retry}s` }] : undefined;
  sendJson(res, status, { error: { code: status, message, status: STATUS[status] ?? "INTERNAL", ...(details ? { details } : {}) } }, headers);
}

export async function handleGemini(req: IncomingMessage, res: ServerResponse, ctx: ChatContext, model: string): Promise<void> {
  const raw = await readJson(req);
  const parsed = geminiSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return sendGoogleError(res, 400, `Invalid generateContent request: ${first ? `${first.path.join(".")}: ${first.message}` : "bad body"}`);
  }
  const request = toChatView(model, parsed.data);
  const seq = ctx.log.takeSeq();
  const match = ctx.script.match(request);
  // The SDK sends the key as `x-goog-api-key`; its value is not logged.
  const key = req.headers["x-goog-api-key"];
  const auth = typeof key === "string" && key !== "" ? "set" : undefined;
  ctx.log.append(seq, { model, ...(raw as Record<string, unknown>) }, request, { authorization: auth }, match?.index ?? null);

  const signal = disconnectSignal(res);
  const rule = match?.rule;
  const headers = rule?.headers ?? {};
  await sleep(rule?.delay_ms ?? 0, signal);
  if (signal.aborted) return;
  const status = rule?.status ?? (rule?.error !== undefined ? 500 : 200);
  if (rule && status >= 400) {
    const message = typeof rule.error === "string" ? rule.error : (rule.error?.message ?? `Scripted error ${status} (fake-llm).`);
    return sendGoogleError(res, status, message, headers);
  }
  const answer = buildAnswer(request, rule ? rule.respond : null, seq);
  await streamSse(
    res,
    geminiChunks(answer, seq),
    { firstTokenDelayMs: rule?.first_token_delay_ms, tokenDelayMs: rule?.token_delay_ms, cutAfterChunks: rule?.cut_after_chunks },
    signal,
    headers,
    "gemini",
  );
}
