import type { ApiScope } from "@/shared/api-scopes";
import type { Caller } from "@/shared/caller";
import { assertScope, assertSession } from "../auth/access";
import { authenticate, PUBLIC_PATHS } from "../auth/guard";
import { ApiError, errorResponse } from "../errors";
import { fetchRequestOf } from "../front-request";
import { assertJsonWithinLimits } from "../json-limits";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteContext<App> {
  request: Request;
  url: URL;
  params: Record<string, string>;
  app: App;
  /** The authenticated caller (null on public routes). */
  caller: Caller | null;
}

export type RouteHandler<App> = (ctx: RouteContext<App>) => Promise<Response> | Response;

/**
 * What an API key needs for a route: a scope, `session` (keys are refused: key management), or `any` (any valid
 * credential). Without one: `threads:read` for GET, `threads:write` for other methods.
 */
export type RouteScope = ApiScope | "session" | "any";

export interface Route<App> {
  method: Method;
  /** Path pattern: `/api/threads/:id`, with an optional trailing `*rest` that captures the remainder. */
  path: string;
  handler: RouteHandler<App>;
  scope?: RouteScope;
  /**
   * The handler reads of its request only the method, URL, headers, signal and `text()`/`json()`: served by the HTTP
   * front, it gets the front's lighter request (api/front-request.ts). Any other route gets a real `Request`.
   */
  lite?: boolean;
}

function assertRouteScope(caller: Caller, route: Route<unknown>): void {
  const scope = route.scope ?? (route.method === "GET" ? "threads:read" : "threads:write");
  if (scope === "session") assertSession(caller);
  else if (scope !== "any") assertScope(caller, scope);
}

interface CompiledRoute<App> extends Route<App> {
  regex: RegExp;
  keys: string[];
}

function compile<App>(route: Route<App>): CompiledRoute<App> {
  const keys: string[] = [];
  const source = route.path
    .split("/")
    .map((seg) => {
      if (seg.startsWith(":")) {
        keys.push(seg.slice(1));
        return "([^/]+)";
      }
      if (seg.startsWith("*")) {
        keys.push(seg.slice(1));
        return "?(.*)";
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { ...route, regex: new RegExp(`^${source}/?$`), keys };
}

/**
 * A framework-free REST dispatcher: the Next.js catch-all route and the plain Node HTTP server used by tests and
 * workers both call the function this returns, so every route behaves the same wherever it is served.
 */
export function createRestDispatcher<App>(routes: Route<App>[], getApp: () => Promise<App>) {
  const compiled = routes.map(compile);
  return async function dispatch(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      let pathMatched = false;
      for (const route of compiled) {
        const m = route.regex.exec(url.pathname);
        if (!m) continue;
        pathMatched = true;
        if (route.method !== request.method) continue;
        const params: Record<string, string> = {};
        route.keys.forEach((k, i) => {
          params[k] = decodePathPart(m[i + 1] ?? "");
        });
        const req = route.lite ? request : fetchRequestOf(request);
        const app = await getApp();
        const caller = PUBLIC_PATHS.has(url.pathname) ? null : await authenticate(req, app as never);
        if (caller) assertRouteScope(caller, route as Route<unknown>);
        return await route.handler({ request: req, url, params, app, caller });
      }
      if (pathMatched) throw new ApiError(405, "METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${url.pathname}`);
      throw new ApiError(404, "NOT_FOUND", `No route for ${request.method} ${url.pathname}`);
    } catch (err) {
      return errorResponse(err);
    }
  };
}

function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ApiError(400, "BAD_REQUEST", "The path has malformed percent-encoding");
  }
}

/** Read a JSON body, answering 400 (not 500) for malformed JSON and 413 for one too large or too deeply nested. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  assertJsonWithinLimits(text);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "BAD_REQUEST", "The request body is not valid JSON");
  }
}
