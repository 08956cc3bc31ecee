import { isController, isThreadEndpoint } from "@/server/spec";
import type { DiagnosticSink } from "./diagnostics";
import { fileRoute, routeShape } from "./file-routes";
import type { LoadedRouteFile, RouteRecord } from "./types";

const HELPER = { api: "defineThreadEndpoint", controllers: "defineController" } as const;
const MOUNT = { api: "/api/threads/:threadId", controllers: "/api/controllers" } as const;

/** The full URL pattern of a route, for messages (`GET /api/threads/:threadId/report`). */
export function mountedPath(r: Pick<RouteRecord, "kind" | "method" | "route">): string {
  return `${r.method} ${MOUNT[r.kind]}${r.route === "/" ? "" : r.route}`;
}

/**
 * Turns loaded route files into mounted routes. A file without the right default export, with a name that is no
 * route, or whose route collides with another file's (same method, same path up to param names) is a diagnostic
 * naming the file, the route and the fix, and is not mounted (neither file of a collision is).
 */
export function linkRoutes(files: readonly LoadedRouteFile[], sink: DiagnosticSink): { endpoints: RouteRecord[]; controllers: RouteRecord[] } {
  const candidates: RouteRecord[] = [];
  for (const f of files) {
    const helper = HELPER[f.kind];
    const handler = f.kind === "api" ? (isThreadEndpoint(f.value) ? f.value : null) : isController(f.value) ? f.value : null;
    if (!handler) {
      const other = f.kind === "api" ? isController(f.value) : isThreadEndpoint(f.value);
      sink.error({
        kind: f.kind,
        file: f.file,
        field: "",
        message:
          f.value === undefined
            ? `${f.file} has no default export, so it mounts no route.`
            : other
              ? `${f.file} exports a ${f.kind === "api" ? "controller" : "thread endpoint"}, but files under ${f.kind}/ are ${f.kind === "api" ? "thread endpoints" : "controllers"}.`
              : `${f.file}: the default export is not made by ${helper}.`,
        fix: other
          ? `Move the file to ${f.kind === "api" ? "controllers" : "api"}/, or export \`${helper}(...)\`.`
          : `Export the handler as the default export: \`export default ${helper}(${f.kind === "api" ? "async (state, request) => ..." : "async (ctx) => ..."})\`.`,
      });
      continue;
    }
    const rel = f.file.slice(f.kind.length + 1);
    const r = fileRoute(rel);
    if (!r.ok) {
      sink.error({ kind: f.kind, file: f.file, field: "", message: `${f.file} is not a valid route: ${r.error}.`, fix: r.fix });
      continue;
    }
    candidates.push({ kind: f.kind, method: r.method, route: r.route, params: r.params, file: f.file, absPath: f.absPath, handler });
  }
  const byShape = new Map<string, RouteRecord[]>();
  for (const c of candidates) {
    const key = `${c.kind} ${routeShape(c.method, c.route)}`;
    byShape.set(key, [...(byShape.get(key) ?? []), c]);
  }
  const mounted: RouteRecord[] = [];
  for (const group of byShape.values()) {
    if (group.length === 1) {
      mounted.push(group[0]!);
      continue;
    }
    for (const c of group) {
      const others = group.filter((o) => o !== c).map((o) => o.file);
      sink.error({
        kind: c.kind,
        file: c.file,
        field: "",
        message: `${c.file} and ${others.join(", ")} both answer ${mountedPath(c)}, so neither is mounted.`,
        fix: "Rename or remove one of the files (params with different names still match the same URLs).",
      });
    }
  }
  mounted.sort((a, b) => a.file.localeCompare(b.file));
  return { endpoints: mounted.filter((r) => r.kind === "api"), controllers: mounted.filter((r) => r.kind === "controllers") };
}
