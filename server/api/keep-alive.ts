import type http from "node:http";

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) is shorter than what clients and proxies
 * keep idle connections for (nginx upstreams, load balancers: 60 s; Node's own agents: no limit), so a client could
 * send its next request on a connection the server was closing at that moment and get ECONNRESET (or the proxy a
 * 502). Staying open longer than the clients in front of it leaves the closing to them.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Apply the keep-alive timeout (and a headers timeout above it, as Node requires) to a server. */
export function keepConnectionsAlive(server: http.Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
