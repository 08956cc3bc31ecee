import { matchRoute, mountedPath, type RouteRecord } from "@/server/registry";
import type { Controller, MarkedThreadEndpoint } from "@/server/spec";
import type { App } from "../app-context";
import { ApiError, errorResponse, errorStatus } from "../errors";
import type { RouteContext, RouteHandler } from "../rest/router";
import { controllerContext } from "./controller-context";
import { endpointViews, mountedEndpoints, type BuiltInThreadRoute } from "./mounted";
import { handlerFailed, toResponse } from "./respond";

type Ctx = RouteContext<App>;

/** The route of `list` that answers `method` on `path`; a 405 when only other methods do, a 404 when none. */
function findRoute(
  list: readonly RouteRecord[],
  method: string,
  path: string,
  builtInMethods: string[],
  pathname: string,
): { route: RouteRecord; params: Record<string, string> } {
  const matching = list.flatMap((r) => {
    const params = matchRoute(r.route, r.params, path);
    return params ? [{ route: r, params }] : [];
  });
  const hit = matching.find((m) => m.route.method === method);
  if (hit) return hit;
  const allowed = [...new Set([...matching.map((m) => m.route.method), ...builtInMethods])];
  if (allowed.length > 0) throw new ApiError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed on ${pathname}; it answers ${allowed.join(", ")}`);
  throw new ApiError(404, "NOT_FOUND", `No route for ${method} ${pathname}`);
}

/** The params of a built-in route pattern (`/variables/:requestId` → `["requestId"]`). */
const paramNames = (route: string) => route.split("/").filter((s) => s.startsWith(":")).map((s) => s.slice(1));

/** Methods of the built-in thread routes (not catch-alls) that answer `path`, for a 405's list. */
function builtInMethodsOn(builtIns: readonly BuiltInThreadRoute[], path: string): string[] {
  return builtIns.filter((b) => !b.route.includes("*") && matchRoute(b.route, paramNames(b.route), path)).map((b) => b.method);
}

/**
 * A thrown error as a response: the API's own errors and the runtime's coded client errors (a thread that is not
 * found, a validation error) keep their status; anything else is a 500 naming the file, its message redacted.
 */
async function failure(app: App, route: RouteRecord, threadId: string | null, err: unknown): Promise<Response> {
  if (err instanceof ApiError || errorStatus(err).status < 500) return errorResponse(err);
  const message = await redactedMessage(app, threadId, err);
  console.error(`[api] ${mountedPath(route)} (${route.file}) threw: ${message}`);
  return handlerFailed(route.file, message);
}

/** The error message a client may see: the thrown message with the thread's secret values masked. */
async function redactedMessage(app: App, threadId: string | null, err: unknown): Promise<string> {
  const message = err instanceof Error ? err.message : String(err);
  return threadId ? app.runtime.redactForThread(threadId, message) : message;
}

/**
 * `/api/threads/:id/<route>` for the thread endpoints of `agents/api/**` (mounted after the built-in routes, behind
 * the same owner check). The handler gets the thread's `ThreadState`, the request and the route params.
 */
export function threadEndpointHandler(builtIns: readonly BuiltInThreadRoute[]): RouteHandler<App> {
  return async ({ request, url, params, app }: Ctx) => {
    const { endpoints } = mountedEndpoints(app.registry.current(), builtIns);
    const path = `/${params.endpoint ?? ""}`.replace(/\/+$/, "") || "/";
    const { route, params: routeParams } = findRoute(endpoints, request.method, path, builtInMethodsOn(builtIns, path), url.pathname);
    const threadId = params.id!;
    const state = await app.runtime.threadState(threadId);
    try {
      return toResponse(await (route.handler as MarkedThreadEndpoint)(state, request, { params: routeParams, url }));
    } catch (err) {
      return failure(app, route, threadId, err);
    }
  };
}

/** `/api/controllers/<route>` for the controllers of `agents/controllers/**` (authenticated like every route). */
export async function controllerHandler({ request, url, params, app, caller }: Ctx): Promise<Response> {
  const { controllers } = mountedEndpoints(app.registry.current(), []);
  const path = `/${params.route ?? ""}`.replace(/\/+$/, "") || "/";
  const { route, params: routeParams } = findRoute(controllers, request.method, path, [], url.pathname);
  try {
    return toResponse(await (route.handler as Controller)(controllerContext(app, caller, request, url, routeParams)));
  } catch (err) {
    return failure(app, route, null, err);
  }
}

/** `GET /api/endpoints`: the mounted thread endpoints and controllers (method, route, file). */
export function listEndpointsHandler(builtIns: readonly BuiltInThreadRoute[]): RouteHandler<App> {
  return ({ app }: Ctx) => Response.json(endpointViews(mountedEndpoints(app.registry.current(), builtIns)));
}
