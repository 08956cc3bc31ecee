/**
 * Server-sent events delivery of a streamed answer: `data: {chunk}\n\n` per chunk, then `data: [DONE]\n\n`, with the
 * rule's first-token and between-token delays, and an optional dropped connection after N chunks.
 */
import type { ServerResponse } from "node:http";
import { sleep } from "./http-util";

/**
 * `openai`: `data:` lines and a final `[DONE]`; `anthropic` (and the Responses API): each chunk as `event: <its type>`
 * plus `data:`, no sentinel; `gemini`: `data:` lines, no sentinel.
 */
export type SseFormat = "openai" | "anthropic" | "gemini";

export interface StreamTiming {
  firstTokenDelayMs?: number;
  tokenDelayMs?: number;
  /** Destroy the socket once this many chunks were written. */
  cutAfterChunks?: number;
}

function write(res: ServerResponse, data: string, event?: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(`${event ? `event: ${event}\n` : ""}data: ${data}\n\n`, () => resolve());
  });
}

export async function streamSse(
  res: ServerResponse,
  chunks: readonly unknown[],
  timing: StreamTiming,
  signal: AbortSignal,
  headers: Record<string, string> = {},
  format: SseFormat = "openai",
): Promise<void> {
  res.writeHead(200, {
    ...headers,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
  const cut = timing.cutAfterChunks;
  if (cut === 0) return void res.socket?.destroy();
  await sleep(timing.firstTokenDelayMs ?? 0, signal);
  for (const [i, chunk] of chunks.entries()) {
    if (signal.aborted) return;
    if (i > 0) await sleep(timing.tokenDelayMs ?? 0, signal);
    if (signal.aborted) return;
    await write(res, JSON.stringify(chunk), format === "anthropic" ? String((chunk as { type?: unknown }).type) : undefined);
    if (cut !== undefined && i + 1 >= cut) return void res.socket?.destroy();
  }
  if (signal.aborted) return;
  if (format === "openai") await write(res, "[DONE]");
  res.end();
}
