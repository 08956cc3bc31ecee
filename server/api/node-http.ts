import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { stampPeerAddress } from "./auth/client-address";
import { frontRefusal } from "./http-front";
import { trackRequest } from "./request-log";

export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Serve a fetch-style handler over plain Node HTTP. The REST routes run here exactly as in the Next.js catch-all
 * route; integration tests and standalone workers use it to talk HTTP without a Next.js build.
 */
export async function serveFetchHandler(
  handler: FetchHandler,
  opts: { port?: number; host?: string } = {},
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    try {
      stampPeerAddress(req.headers, req.socket.remoteAddress);
      trackRequest(req, res);
      const refused = frontRefusal(req.method, req.url);
      if (refused) return void res.writeHead(refused.status, refused.headers).end(refused.body);
      const host = req.headers.host ?? "127.0.0.1";
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(`http://${host}${req.url ?? "/"}`, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) =>
          v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : [[k, v] as [string, string]],
        ),
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        signal: controller.signal,
        // Required by Node's fetch for streamed request bodies.
        ...(hasBody ? { duplex: "half" } : {}),
      } as RequestInit);
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (!response.body) return void res.end();
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!res.write(value)) await new Promise((r) => res.once("drain", r));
      }
      res.end();
    } catch (err) {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "INTERNAL", message: "Internal server error" } }));
      } else res.destroy(err as Error);
    }
  });
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
