/**
 * Server-sent events delivery of a streamed answer: `data: {chunk}\n\n` per chunk, then `data: [DONE]\n\n`, with the
 * rule's first-token and between-token delays, and an optional dropped connection after N chunks.
 */
import type { ServerResponse } from "node:http";
import { sleep } from "./http-util";

export interface StreamTiming {
  firstTokenDelayMs?: number;
  tokenDelayMs?: number;
  /** Destroy the socket once this many chunks were written. */
  cutAfterChunks?: number;
}

function write(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(`data: ${data}\n\n`, () => resolve());
  });
}

export async function streamSse(
  res: ServerResponse,
  chunks: readonly unknown[],
  timing: StreamTiming,
  signal: AbortSignal,
  headers: Record<string, string> = {},
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
    await write(res, JSON.stringify(chunk));
    if (cut !== undefined && i + 1 >= cut) return void res.socket?.destroy();
  }
  if (signal.aborted) return;
  await write(res, "[DONE]");
  res.end();
}
