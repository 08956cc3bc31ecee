"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc-provider";
import { AgentCard } from "./agent-card";
import { DiagnosticsPanel } from "./diagnostics-panel";
import { RoutesPanel } from "./routes-panel";

/** The home page: the registry's agents and its diagnostics, updated live when a definition file changes. */
export function RegistryOverview() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.registry.overview.queryOptions());
  useSubscription(
    trpc.registry.changes.subscriptionOptions(undefined, {
      onData: (data) => queryClient.setQueryData(trpc.registry.overview.queryKey(), data),
    }),
  );

  if (overview.isPending) return <p className="text-sm text-slate-500 dark:text-slate-400">Loading the agent registry…</p>;
  if (overview.isError) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        Could not load the registry: {overview.error.message}
      </p>
    );
  }
  const data = overview.data;
  const errors = data.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = data.diagnostics.length - errors;
  return (
    <div className="flex flex-col gap-8">
      {!data.llm.configured ? (
        <p role="status" data-testid="llm-hint" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-100">
          {data.llm.hint}
        </p>
      ) : null}
      <section aria-labelledby="agents-heading" className="flex flex-col gap-4">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="agents-heading" className="text-lg font-semibold">
            Agents <span data-testid="agent-count" className="text-slate-500 dark:text-slate-400">({data.agents.length})</span>
          </h2>
          <p className="truncate text-xs text-slate-500 dark:text-slate-400" title={data.agentsDir}>
            from {data.agentsDir} ·{" "}
            <Link href="/definitions/prompts" className="text-indigo-700 underline dark:text-indigo-300">
              All definitions
            </Link>
          </p>
        </div>
        {data.agents.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">No agents yet. Add a file under agents/agents/ with a default export of defineAgent(…).</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {data.agents.map((a) => (
              <AgentCard key={a.name} agent={a} />
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="routes-heading" className="flex flex-col gap-4">
        <h2 id="routes-heading" className="text-lg font-semibold">
          HTTP routes
        </h2>
        <RoutesPanel routes={data.routes} />
      </section>
      <section aria-labelledby="diagnostics-heading" className="flex flex-col gap-4">
        <h2 id="diagnostics-heading" className="text-lg font-semibold">
          Diagnostics{" "}
          <span data-testid="diagnostic-count" className="text-slate-500 dark:text-slate-400">
            ({errors} error{errors === 1 ? "" : "s"}, {warnings} warning{warnings === 1 ? "" : "s"})
          </span>
        </h2>
        <DiagnosticsPanel diagnostics={data.diagnostics} />
      </section>
    </div>
  );
}
