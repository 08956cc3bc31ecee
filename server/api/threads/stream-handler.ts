import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import type { App } from "../app-context";
import type { RouteContext } from "../rest/router";
import { envelopeText } from "@/server/runtime/events/envelope-text";
import { dualBody, withDirectBody } from "../direct-body";
import { threadEventBatches } from "./event-feed";

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

/**
 * One SSE frame: persisted events carry `id:` = the thread's event sequence; token deltas carry none. An event
 * appended in this process comes with its stored JSON text (envelope-text.ts), which is spliced in after the envelope's
 * fields rather than serialized again: the same text, as long as the event has none of those fields itself.
 */
export function sseFrame(env: ThreadEventEnvelope): string {
  const text = envelopeText(env);
  const ev = env.event as Record<string, unknown>;
  const data =
    text !== undefined && text.length > 2 && text.charCodeAt(0) === 123 && !("seq" in ev) && !("thread_id" in ev) && !("at" in ev)
      ? `{"seq":${env.seq},"thread_id":${JSON.stringify(env.threadId)},"at":${JSON.stringify(env.at)},${text.slice(1)}`
      : JSON.stringify({ seq: env.seq, thread_id: env.threadId, at: env.at, ...env.event });
  return env.persisted ? `id: ${env.seq}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

/**
 * The encoded frame of an envelope, made once however many clients stream it: the bus hands every subscriber the same
 * envelope object, so a thread watched by 200 clients serializes each event once, not 200 times.
 */
const frames = new WeakMap<ThreadEventEnvelope, Uint8Array>();
export function sseFrameBytes(env: ThreadEventEnvelope): Uint8Array {
  let bytes = frames.get(env);
  if (!bytes) {
    bytes = encoder.encode(sseFrame(env));
    frames.set(env, bytes);
  }
  return bytes;
}

/**
 * `GET /api/threads/:id/stream`: Server-Sent Events with `Last-Event-ID` resume (header, or `?lastEventId=`), a
 * comment heartbeat every 15 s, and `retry: 2000` for reconnecting clients.
 */
export async function streamHandler({ params, request, url, app }: RouteContext<App>): Promise<Response> {
  const thread = await app.runtime.getThread(params.id!);
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId") ?? "0";
  const parsed = Number.parseInt(raw, 10);
  const afterSeq = Number.isFinite(parsed) && parsed > 0 ? parsed : 0;
  const abort = new AbortController();
  request.signal.addEventListener("abort", () => abort.abort());
  let heartbeat: NodeJS.Timeout | undefined;
  const stop = () => {
    clearInterval(heartbeat);
    abort.abort();
  };
  // Written through the response's web stream, or straight to the socket by the HTTP front (direct-body.ts).
  const { stream, direct } = dualBody(async (write) => {
    const send = (chunk: string | Uint8Array) => {
      if (!write(typeof chunk === "string" ? encoder.encode(chunk) : chunk)) abort.abort();
    };
    send(`retry: 2000\n: connected to thread ${thread.id}\n\n`);
    heartbeat = setInterval(() => send(`: heartbeat\n\n`), HEARTBEAT_MS);
    try {
      // A batch (a page of the log, a transaction's events) goes out as one chunk: one write, not one per event.
      for await (const batch of threadEventBatches({ bus: app.bus, events: app.persistence.events }, thread.id, afterSeq, abort.signal)) {
        send(batch.length === 1 ? sseFrameBytes(batch[0]!) : Buffer.concat(batch.map(sseFrameBytes)));
      }
    } finally {
      clearInterval(heartbeat);
    }
  }, stop);
  const response = new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
  return withDirectBody(response, direct);
}
