/**
 * `POST /v1/chat/completions`: validate the body, pick the answering rule, log the request, then answer as the rule
 * says (error status, delays, a non-streaming completion, or an SSE stream that may be cut).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { chatRequestSchema } from "./chat-request";
import { disconnectSignal, readJson, sendError, sendJson, sleep } from "./http-util";
import type { RequestLog } from "./request-log";
import { buildAnswer, completionBody, streamChunks } from "./response-builder";
import type { Script } from "./rule-matcher";
import type { ParsedRule } from "./script-schema";
import { formatPath } from "./script-schema";
import { streamSse } from "./sse-stream";

export interface ChatContext {
  script: Script;
  log: RequestLog;
}

function errorFields(rule: ParsedRule, status: number): { message: string; type?: string; code?: string | null } {
  const fallback =
    status === 429
      ? "Rate limit reached (scripted by fake-llm)."
      : `Scripted error ${status} (fake-llm rule answered with status ${status}).`;
  const code = status === 429 ? "rate_limit_exceeded" : null;
  const { error } = rule;
  if (error === undefined) return { message: fallback, code };
  if (typeof error === "string") return { message: error, code };
  return { message: error.message ?? fallback, type: error.type, code: error.code === undefined ? code : error.code };
}

export async function handleChat(req: IncomingMessage, res: ServerResponse, ctx: ChatContext): Promise<void> {
  const raw = await readJson(req);
  const parsed = chatRequestSchema.safeParse(raw);
  if (!parsed.success || typeof raw !== "object" || raw === null) {
    const issues = parsed.success ? [] : parsed.error.issues;
    const first = issues[0];
    return sendError(res, 400, {
      message: first
        ? `Invalid chat completion request: ${formatPath(first.path)}: ${first.message}`
        : "Invalid chat completion request: the body must be a JSON object.",
      details: issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    });
  }
  const request = parsed.data;
  const seq = ctx.log.takeSeq();
  const match = ctx.script.match(request);
  ctx.log.append(seq, raw as Record<string, unknown>, request, req.headers, match?.index ?? null);

  const signal = disconnectSignal(res);
  const rule = match?.rule;
  const headers = { "x-request-id": `req_fake_${seq}`, ...(rule?.headers ?? {}) };
  const stream = request.stream === true;

  await sleep(rule?.delay_ms ?? 0, signal);
  if (signal.aborted) return;
  if (rule?.cut_after_chunks !== undefined && !stream) return void req.socket.destroy();

  const status = rule?.status ?? (rule?.error !== undefined ? 500 : 200);
  if (rule && status >= 400) return sendError(res, status, errorFields(rule, status), headers);

  const answer = buildAnswer(request, rule ? rule.respond : null, seq);
  if (!stream) return sendJson(res, status, completionBody(answer), headers);
  const includeUsage = request.stream_options?.include_usage === true;
  await streamSse(
    res,
    streamChunks(answer, includeUsage),
    {
      firstTokenDelayMs: rule?.first_token_delay_ms,
      tokenDelayMs: rule?.token_delay_ms,
      cutAfterChunks: rule?.cut_after_chunks,
    },
    signal,
    headers,
  );
}
