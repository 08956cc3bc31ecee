/** Small HTTP helpers over `node:http`: body reading, JSON answers, OpenAI-style errors, abortable waits. */
import type { IncomingMessage, ServerResponse } from "node:http";

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export class BodyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    const buf = part as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(`Request body exceeds ${MAX_BODY_BYTES} bytes.`, 413);
    parts.push(buf);
  }
  return Buffer.concat(parts).toString("utf8");
}

/** Reads and parses a JSON body; an empty body is `undefined`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new BodyError(`Request body is not valid JSON: ${(err as Error).message}`, 400);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export interface ErrorFields {
  message: string;
  type?: string;
  code?: string | null;
  details?: unknown;
}

/** Answers `{error: {message, type, code, param}}`, the shape the `openai` SDK reads into `APIError`. */
export function sendError(
  res: ServerResponse,
  status: number,
  fields: ErrorFields,
  headers: Record<string, string> = {},
): void {
  const { message, type = defaultErrorType(status), code = null, details } = fields;
  const error: Record<string, unknown> = { message, type, param: null, code };
  if (details !== undefined) error.details = details;
  sendJson(res, status, { error }, headers);
}

export function defaultErrorType(status: number): string {
  if (status === 429) return "rate_limit_exceeded";
  if (status === 401) return "authentication_error";
  if (status === 404) return "not_found_error";
  if (status < 500) return "invalid_request_error";
  return "server_error";
}

/** Resolves after `ms`, or early when the signal aborts (the client went away). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** An AbortSignal that fires when the response closes before it finished (client disconnect). */
export function disconnectSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
