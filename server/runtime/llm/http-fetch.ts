/**
 * The HTTP transport under the OpenAI SDK: a `fetch` on `node:http` / `node:https` with keep-alive agents, handed to
 * the SDK through its documented `fetch` option.
 *
 * Node's global fetch (undici's WHATWG implementation) costs about 0.3 ms of CPU per streamed completion on loopback:
 * it wraps the string body in a web stream, tees it for a possible redirect, runs the fetch state machine and builds
 * a DOMException when the finished body is released. That was a third of a step's CPU with a model that answers at
 * once. This transport sends the SDK's string or byte body as it is and hands the response's chunks to the SDK as
 * they arrive, through a `ChunkBody` (http-body.ts) rather than a web stream.
 *
 * What it does like fetch: the caller's abort signal cancels the request or the body with the signal's reason; a
 * compressed response (gzip, deflate, br) is decompressed; a request whose reused keep-alive socket turns out to be
 * closed by the server is sent once more on a new one (the server never saw it). What it leaves to fetch: any other
 * body (form data, blobs, streams), a `Request` object as input, and schemes other than http and https. Redirects are
 * not followed: the SDK sees the 3xx as an error, where fetch would re-send a POST as a body-less GET.
 */
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { ChunkBody, ChunkResponse } from "./http-body";

const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/** Statuses whose response has no body (`new Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export const httpFetch: typeof fetch = (input, init) => {
  const url = typeof input === "string" ? safeUrl(input) : input instanceof URL ? input : null;
  const body = init?.body;
  const plainBody = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  if (!url || !(url.protocol in agents) || !plainBody) return fetch(input, init);
  return send(url, init ?? {}, body ?? undefined, true);
};

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function send(url: URL, init: RequestInit, body: string | Uint8Array | undefined, mayResend: boolean): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const headers: Record<string, string> = {};
  // The SDK hands a Headers object; anything else goes through one.
  (init.headers instanceof Headers ? init.headers : new Headers(init.headers)).forEach((value, name) => (headers[name] = value));
  if (body !== undefined) headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  const secure = url.protocol === "https:";
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const onAbort = () => req.destroy();
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      reject(signal?.aborted ? abortReason(signal) : err);
    };
    const req = (secure ? https : http).request(
      url,
      { method: init.method ?? "GET", headers, agent: agents[secure ? "https:" : "http:"] },
      (res) => {
        settled = true;
        resolve(toResponse(url, res, signal, onAbort));
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => {
      // A keep-alive socket the server closed while it sat in the pool: the request never reached the server.
      if (!settled && mayResend && req.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE") && !signal?.aborted) {
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        send(url, init, body, false).then(resolve, reject);
        return;
      }
      fail(err);
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    req.end(body);
  });
}

/** The response as the SDK reads it: status, headers, and the body as chunks fed by the socket (`ChunkBody`). */
function toResponse(url: URL, res: http.IncomingMessage, signal: AbortSignal | undefined, requestAbort: () => void): Response {
  signal?.removeEventListener("abort", requestAbort);
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // A header value fetch would refuse too (not ByteString): left out.
    }
  }
  const status = res.statusCode ?? 0;
  if (NULL_BODY.has(status)) {
    res.resume();
    const response = new Response(null, { status, statusText: res.statusMessage, headers });
    Object.defineProperty(response, "url", { value: url.href });
    return response;
  }
  const source = decoded(res, headers.get("content-encoding"));
  if (signal) {
    const onAbort = () => source.destroy(asError(abortReason(signal)));
    signal.addEventListener("abort", onAbort, { once: true });
    source.once("close", () => signal.removeEventListener("abort", onAbort));
  }
  return new ChunkResponse(new ChunkBody(source), { status, statusText: res.statusMessage, headers, url: url.href });
}

/** The body with its content coding undone (fetch does the same; the SDK never asks for a coding itself). */
function decoded(res: http.IncomingMessage, coding: string | null): Readable {
  const c = coding?.trim().toLowerCase();
  const decoder =
    c === "gzip" || c === "x-gzip"
      ? zlib.createGunzip()
      : c === "deflate"
        ? zlib.createInflate()
        : c === "br"
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return res;
  res.on("error", (err) => decoder.destroy(err));
  decoder.once("close", () => res.destroy());
  return res.pipe(decoder);
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : Object.assign(new Error(String(reason)), { name: "AbortError" });
}
