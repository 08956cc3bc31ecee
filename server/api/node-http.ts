import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { stampPeerAddress } from "./auth/client-address";
import { directBodyOf } from "./direct-body";
import { FrontRequest } from "./front-request";
import { frontRefusal } from "./http-front";
import { keepConnectionsAlive } from "./keep-alive";
import { trackRequest } from "./request-log";

export type FetchHandler = (request: Request) => Promise<Response>;

/** Bodies up to this size (by `Content-Length`) are read whole before the handler runs. */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * A small body announced by `Content-Length` (a JSON post), read whole: handed to the `Request` as bytes, it costs no
 * web stream over the Node request (`Readable.toWeb`) and no stream reader in the handler's `text()`. Larger bodies,
 * and chunked ones, are streamed (null here).
 */
function readSmallBody(req: http.IncomingMessage): Promise<Buffer> | null {
  const length = Number(req.headers["content-length"]);
  if (!Number.isInteger(length) || length < 0 || length > SMALL_BODY_BYTES || req.headers["transfer-encoding"] !== undefined) return null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/**
 * Answer one Node request with a fetch-style handler: the request becomes a `Request` (its body streamed, its signal
 * aborted when the client goes away, which ends an SSE stream), the `Response` is written back (streamed bodies chunk
 * by chunk, with back-pressure). `extraHeaders` are added to every response. The caller stamps the peer address and
 * applies `frontRefusal` first.
 */
export async function answerWithFetchHandler(
  handler: FetchHandler,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  extraHeaders: Record<string, string> = {},
  /** The handler is the REST dispatcher (rest/router.ts): it gets a `FrontRequest` (front-request.ts), not a `Request`. */
  opts: { lite?: boolean } = {},
): Promise<void> {
  const controller = new AbortController();
  // The client went away before the response was over (an SSE stream it closed): the handler's signal says so. A
  // response written to its end needs no abort (an abort builds an error with its stack, on every request).
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    const host = req.headers.host ?? "127.0.0.1";
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    // Name/value pairs, which the `Request` takes into its own headers once (a `Headers` built here was copied again).
    const headers: [string, string][] = [];
    for (const k in req.headers) {
      const v = req.headers[k];
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const x of v) headers.push([k, x]);
      else headers.push([k, v]);
    }
    const small = hasBody ? readSmallBody(req) : null;
    const url = `http://${host}${req.url ?? "/"}`;
    const request = opts.lite
      ? (new FrontRequest(url, req.method ?? "GET", headers, small ? await small : hasBody ? req : null, controller.signal) as unknown as Request)
      : new Request(url, {
          method: req.method,
          headers,
          body: small ? await small : hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
          signal: controller.signal,
          // Required by Node's fetch for streamed request bodies.
          ...(hasBody && !small ? { duplex: "half" } : {}),
        } as RequestInit);
    const response = await handler(request);
    const out: Record<string, string | string[]> = { ...extraHeaders };
    for (const [k, v] of response.headers) {
      if (k === "set-cookie") continue;
      out[k] = v;
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out["set-cookie"] = cookies;
    res.writeHead(response.status, out);
    if (!response.body) return void res.end();
    // A body that can be produced straight into the socket (an SSE stream): no web stream between its chunks and
    // `res.write`. A write to a response whose client went away says so, and the producer stops (its feed ends);
    // `close` also aborts the handler's signal above.
    const direct = directBodyOf(response);
    const sink = {
      write(chunk: Uint8Array) {
        if (res.destroyed) return false;
        res.write(chunk);
        return !res.destroyed;
      },
    };
    if (direct && !response.body.locked && (await direct.run(sink))) return void res.end();
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drainedOrClosed(res);
      if (res.destroyed) {
        // The client went away: no drain will come. The body is cancelled (an SSE stream's feed ends) rather than
        // left waiting with its reader, its queued chunks and its subscription for the life of the process.
        await reader.cancel().catch(() => {});
        return;
      }
    }
    res.end();
  } catch (err) {
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "application/json", ...extraHeaders });
      res.end(JSON.stringify({ error: { code: "INTERNAL", message: "Internal server error" } }));
    } else res.destroy(err as Error);
  }
}

/** Resolves when the response can take more (`drain`) or will take nothing more (`close`). */
function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * Serve a fetch-style handler over plain Node HTTP. The REST routes run here exactly as in the Next.js catch-all
 * route; integration tests and standalone workers use it to talk HTTP without a Next.js build.
 */
export async function serveFetchHandler(
  handler: FetchHandler,
  /** `rest`: the handler is the REST dispatcher, which takes the front's lighter request (see answerWithFetchHandler). */
  opts: { port?: number; host?: string; rest?: boolean } = {},
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    stampPeerAddress(req.headers, req.socket.remoteAddress);
    trackRequest(req, res);
    const refused = frontRefusal(req.method, req.url);
    if (refused) return void res.writeHead(refused.status, refused.headers).end(refused.body);
    void answerWithFetchHandler(handler, req, res, {}, { lite: opts.rest === true });
  });
  keepConnectionsAlive(server);
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
