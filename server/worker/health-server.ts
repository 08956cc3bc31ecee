import http from "node:http";
import type { AddressInfo } from "node:net";
import type { App } from "@/server/api/app-context";
import { collectHealth, safeMessage } from "@/server/api/health";

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A tiny HTTP server for a process without the web app (`npm run worker`): `GET /health` (and `/api/health`) answers
 * the same JSON as the app's `/api/health`, 200 when healthy and 503 otherwise. No authentication; no secrets in it.
 */
export async function serveHealth(app: App, opts: { port: number; host?: string }): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") return reply(res, 405, { error: { code: "METHOD_NOT_ALLOWED", message: "use GET" } });
    if (path !== "/health" && path !== "/api/health") return reply(res, 404, { error: { code: "NOT_FOUND", message: "GET /health" } });
    collectHealth(app).then(
      ({ httpStatus, body }) => reply(res, httpStatus, body),
      (err) => reply(res, 503, { status: "degraded", error: safeMessage(err) }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host && opts.host !== "0.0.0.0" && opts.host !== "::" ? opts.host : "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(res.req.method === "HEAD" ? undefined : text);
}
