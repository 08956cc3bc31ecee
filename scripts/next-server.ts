/**
 * The HTTP server in front of Next.js (what `next start` / `next dev` would be), for what Next.js does not do:
 * - it records each request's socket address in a header only it may write (server/api/auth/client-address.ts), since
 *   a route handler never sees the socket and Next.js keeps any `X-Forwarded-For` a client sends;
 * - it refuses what Next.js would answer with a 500 (a method such as TRACE, a path with malformed percent-encoding)
 *   with a 4xx in the API's error shape (server/api/http-front.ts);
 * - it gives each request an id (`X-Request-Id`) and logs it once it is over (server/api/request-log.ts);
 * - with `directApi` (production, unless API_THROUGH_NEXT=1) it answers the REST API (`/api/*` but tRPC) itself with
 *   the handler the server published at start (server/api/rest/published-handler.ts), the same routes Next.js's
 *   catch-all route serves, with the same static security headers: Next.js's router, request adapters and tracing
 *   cost more CPU per request than the route itself (a POST of a message, an SSE stream), which under load queued
 *   every thread's requests behind each other on the one event loop.
 * Set NODE_ENV before importing this module (Next.js reads it when it loads).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { stampPeerAddress } from "../server/api/auth/client-address";
import { frontRefusal } from "../server/api/http-front";
import { keepConnectionsAlive } from "../server/api/keep-alive";
import { trackRequest } from "../server/api/request-log";
import { answerWithFetchHandler } from "../server/api/node-http";
import { isDirectApiRequest, publishedRestHandler } from "../server/api/rest/published-handler";
import { STATIC_SECURITY_HEADERS } from "../server/api/security-headers";
import { restoreNativeDate } from "./native-date";

const securityHeaders = Object.fromEntries(STATIC_SECURITY_HEADERS.map((h) => [h.key.toLowerCase(), h.value]));

export async function serveNext(opts: {
  dir: string;
  dev: boolean;
  port: number;
  host?: string;
  /** Answer the REST API here, not through Next.js (see above). */
  directApi?: boolean;
}): Promise<{ url: string; close(): Promise<void> }> {
  const mod = (await import("next")) as unknown as { default: NextFactory | { default: NextFactory } };
  const createNext = typeof mod.default === "function" ? mod.default : mod.default.default;
  const app = createNext({ dev: opts.dev, dir: opts.dir, hostname: opts.host ?? "localhost", port: opts.port });
  await app.prepare();
  if (!opts.dev) restoreNativeDate();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => {
    stampPeerAddress(req.headers, req.socket.remoteAddress);
    trackRequest(req, res);
    const refused = frontRefusal(req.method, req.url);
    if (refused) return void res.writeHead(refused.status, refused.headers).end(refused.body);
    const api = opts.directApi && isDirectApiRequest(req.method, req.url) ? publishedRestHandler() : undefined;
    if (api) return void answerWithFetchHandler(api, req, res, securityHeaders, { lite: true });
    void handle(req, res);
  });
  keepConnectionsAlive(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? "localhost"}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type NextFactory = (options: { dev: boolean; dir: string; hostname: string; port: number }) => {
  prepare(): Promise<void>;
  getRequestHandler(): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
};
