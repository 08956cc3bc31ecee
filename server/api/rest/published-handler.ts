import type { FetchHandler } from "../node-http";

/**
 * The REST API's handler, published process-wide by the server's start-up (instrumentation.ts) so that the HTTP front
 * (scripts/next-server.ts) can answer `/api/*` itself instead of passing each request through Next.js's router and
 * route-handler machinery, which cost more CPU per request than the handler it wraps. A global symbol, since the
 * front and the Next.js bundles load their own copies of this module.
 */
const KEY = Symbol.for("standard-agents-studio.rest-handler");
type Holder = Record<symbol, FetchHandler | undefined>;

export function publishRestHandler(handler: FetchHandler): void {
  (globalThis as unknown as Holder)[KEY] = handler;
}

export function publishedRestHandler(): FetchHandler | undefined {
  return (globalThis as unknown as Holder)[KEY];
}

/** Methods the REST routes serve (HEAD and OPTIONS stay with Next.js, which answers them for route handlers). */
const DIRECT_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether the front answers this request with the published handler: a REST path (`/api/…`, not tRPC's, not ending
 * in a slash, which Next.js redirects) with a method the routes serve.
 */
export function isDirectApiRequest(method: string | undefined, rawUrl: string | undefined): boolean {
  if (!method || !DIRECT_METHODS.has(method) || !rawUrl?.startsWith("/api/")) return false;
  const path = rawUrl.split("?")[0]!;
  return !path.startsWith("/api/trpc/") && path !== "/api/trpc" && !path.endsWith("/");
}
