import { mountedPath, routeShape, type RegistrySnapshot, type RouteRecord } from "@/server/registry";
import type { Diagnostic } from "@/shared/diagnostic";

/** A built-in route under `/api/threads/:id` (method and the part after the thread id, `*` for a catch-all tail). */
export interface BuiltInThreadRoute {
  method: string;
  /** `/messages`, `/fs/*path`, or `/` for the thread itself. */
  route: string;
}

export interface MountedEndpoints {
  endpoints: RouteRecord[];
  controllers: RouteRecord[];
  /** Endpoints left out because a built-in thread route answers the same method and path. */
  diagnostics: Diagnostic[];
}

/** Whether a built-in route answers every URL the endpoint answers (a `*tail` covers all paths below it). */
function shadows(builtIn: BuiltInThreadRoute, endpoint: RouteRecord): boolean {
  if (builtIn.method !== endpoint.method) return false;
  const star = builtIn.route.indexOf("/*");
  if (star >= 0) {
    const prefix = routeShape("", builtIn.route.slice(0, star)).trim();
    const shape = routeShape("", endpoint.route).trim();
    return shape === prefix || shape.startsWith(`${prefix}/`);
  }
  return routeShape(builtIn.method, builtIn.route) === routeShape(endpoint.method, endpoint.route);
}

const cache = new WeakMap<RegistrySnapshot, MountedEndpoints>();

/**
 * The snapshot's thread endpoints and controllers as mounted next to the built-in routes: an endpoint whose method
 * and path a built-in thread route already answers is a diagnostic (file, route, fix) and is not mounted. Computed
 * once per snapshot, so a reload remounts everything.
 */
export function mountedEndpoints(snapshot: RegistrySnapshot, builtIns: readonly BuiltInThreadRoute[]): MountedEndpoints {
  const cached = cache.get(snapshot);
  if (cached) return cached;
  const diagnostics: Diagnostic[] = [];
  const endpoints = snapshot.endpoints.filter((e) => {
    const hit = builtIns.find((b) => shadows(b, e));
    if (!hit) return true;
    diagnostics.push({
      severity: "error",
      kind: "api",
      file: e.file,
      field: "",
      message: `${e.file} answers ${mountedPath(e)}, which is a built-in route (${hit.method} /api/threads/:id${hit.route === "/" ? "" : hit.route}), so it is not mounted.`,
      fix: "Rename the file (or its folder) so that its route differs from the built-in thread routes.",
    });
    return false;
  });
  const mounted = { endpoints, controllers: [...snapshot.controllers], diagnostics };
  cache.set(snapshot, mounted);
  return mounted;
}

/** One mounted route as the API and the UI list it. */
export interface EndpointView {
  kind: "endpoint" | "controller";
  method: string;
  /** The full URL pattern (`/api/threads/:threadId/notes/:slug`). */
  route: string;
  file: string;
}

/** The mounted thread endpoints and controllers, for listings. */
export function endpointViews(mounted: MountedEndpoints): { endpoints: EndpointView[]; controllers: EndpointView[] } {
  const view = (r: RouteRecord): EndpointView => ({
    kind: r.kind === "api" ? "endpoint" : "controller",
    method: r.method,
    route: mountedPath(r).split(" ")[1]!,
    file: r.file,
  });
  return { endpoints: mounted.endpoints.map(view), controllers: mounted.controllers.map(view) };
}
