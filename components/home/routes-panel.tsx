import { Badge } from "@/components/ui/badge";
import type { RegistryOverview } from "./types";

type RouteView = RegistryOverview["routes"]["endpoints"][number];

function RouteList({ title, hint, routes }: { title: string; hint: string; routes: RouteView[] }) {
  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">
        {title} <span className="font-normal text-slate-500 dark:text-slate-400">({routes.length})</span>
      </h3>
      {routes.length === 0 ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">{hint}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {routes.map((r) => (
            <li key={`${r.method} ${r.route}`} data-testid="route" className="flex flex-wrap items-center gap-2 text-sm">
              <Badge tone={r.method === "GET" ? "emerald" : r.method === "DELETE" ? "red" : "indigo"}>{r.method}</Badge>
              <span className="font-mono text-xs">{r.route}</span>
              <span className="truncate text-xs text-slate-500 dark:text-slate-400" title={r.file}>
                {r.file}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The HTTP routes the definitions add: thread endpoints (`api/**`) and controllers (`controllers/**`). */
export function RoutesPanel({ routes }: { routes: RegistryOverview["routes"] }) {
  return (
    <div className="grid gap-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 dark:border-slate-800 dark:bg-slate-900">
      <RouteList
        title="Thread endpoints"
        hint="None: a file under agents/api/ with a default export of defineThreadEndpoint(…) adds one to every thread."
        routes={routes.endpoints}
      />
      <RouteList
        title="Controllers"
        hint="None: a file under agents/controllers/ with a default export of defineController(…) adds one."
        routes={routes.controllers}
      />
    </div>
  );
}
