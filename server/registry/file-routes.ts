import path from "node:path";
import { ROUTE_METHODS, type RouteMethod } from "@/server/spec";

/** A file's route: its method, its path pattern and its params; or why the file name is no route. */
export type FileRoute = { ok: true; method: RouteMethod; route: string; params: string[] } | { ok: false; error: string; fix: string };

const LITERAL = /^[A-Za-z0-9._~-]+$/;
const PARAM = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/;

/**
 * The file-route convention of `api/**` and `controllers/**` (`rel` is relative to that folder):
 * `report.ts` → GET `/report`; `items/[itemId]/approve.post.ts` → POST `/items/:itemId/approve`; `index.ts` maps to
 * its folder (`orders/index.post.ts` → POST `/orders`); a `.get`, `.post`, `.put`, `.patch` or `.delete` suffix picks
 * the method, GET without one.
 */
export function fileRoute(rel: string): FileRoute {
  const parts = rel.split("/");
  const last = parts.pop()!;
  let stem = last.slice(0, last.length - path.extname(last).length);
  let method: RouteMethod = "GET";
  const suffix = /\.([a-z]+)$/i.exec(stem);
  if (suffix) {
    const m = suffix[1]!.toUpperCase();
    if (!(ROUTE_METHODS as readonly string[]).includes(m)) {
      return {
        ok: false,
        error: `"${suffix[1]}" in ${last} is not an HTTP method`,
        fix: `Name the file <route>.<method>.ts with a method among ${ROUTE_METHODS.map((x) => x.toLowerCase()).join(", ")} (or no suffix for GET).`,
      };
    }
    method = m as RouteMethod;
    stem = stem.slice(0, suffix.index);
  }
  const segments = stem === "index" ? parts : [...parts, stem];
  const params: string[] = [];
  const out: string[] = [];
  for (const seg of segments) {
    const param = PARAM.exec(seg);
    if (param) {
      if (params.includes(param[1]!)) {
        return { ok: false, error: `the param [${param[1]}] appears twice in ${rel}`, fix: "Give each [param] segment of the path its own name." };
      }
      params.push(param[1]!);
      out.push(`:${param[1]}`);
    } else if (LITERAL.test(seg)) {
      out.push(seg);
    } else {
      return {
        ok: false,
        error: `the path segment "${seg}" of ${rel} is neither a name nor a [param]`,
        fix: "Use letters, digits, '.', '_', '-' and '~' in folder and file names, or [name] for a route param.",
      };
    }
  }
  return { ok: true, method, route: `/${out.join("/")}`, params };
}

/** The shape two routes collide on: params are interchangeable (`/items/:a` and `/items/:b` answer the same URLs). */
export function routeShape(method: string, route: string): string {
  return `${method} ${route.replace(/:[^/]+/g, ":")}`;
}

/** Whether `route` (with `:params`) matches `pathname`; the param values when it does. */
export function matchRoute(route: string, params: readonly string[], pathname: string): Record<string, string> | null {
  const want = route.split("/").filter(Boolean);
  const got = pathname.split("/").filter(Boolean);
  if (want.length !== got.length) return null;
  const values: Record<string, string> = {};
  let p = 0;
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(":")) values[params[p++]!] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return null;
  }
  return values;
}
