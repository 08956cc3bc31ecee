import { randomUUID } from "node:crypto";
import type http from "node:http";
import { componentLogger, type Logger } from "@/server/observability/logger";

/** The header that carries a request's id, in both directions. */
export const REQUEST_ID_HEADER = "x-request-id";
/** An id a client (or a proxy in front) sent is kept when it is this tame; anything else gets a new one. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const THREAD_PATH = /^\/api\/threads\/([^/?]+)/;

let log: Logger | null = null;

/**
 * Give a request its id (the client's `X-Request-Id` when acceptable, else a new UUID), visible to the routes as that
 * request header and to the client as the response header, and log it once it is over: `debug` for every request,
 * `error` for a 5xx, with method, path (never the query, which may hold a token), status, duration, and the thread the
 * path names. Called by the HTTP servers in front of the routes (scripts/next-server.ts, server/api/node-http.ts).
 */
export function trackRequest(req: http.IncomingMessage, res: http.ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const requestId = typeof incoming === "string" && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
  req.headers[REQUEST_ID_HEADER] = requestId;
  res.setHeader("X-Request-Id", requestId);
  const started = performance.now();
  res.once("close", () => {
    const status = res.statusCode;
    const level = status >= 500 ? "error" : "debug";
    log ??= componentLogger("http");
    if (!log.isLevelEnabled(level)) return;
    const path = (req.url ?? "/").split("?")[0]!;
    const threadId = THREAD_PATH.exec(path)?.[1];
    log[level](
      {
        requestId,
        method: req.method,
        path,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(threadId ? { threadId } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      "request",
    );
  });
  return requestId;
}
