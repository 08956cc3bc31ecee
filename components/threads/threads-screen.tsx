"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { filtersToQuery, type ThreadFilters } from "./filter-query";
import { ThreadFilterForm } from "./thread-filters";
import { buildThreadTree, flattenTree } from "./thread-tree";
import { ThreadRow } from "./thread-row";
import { useNow } from "./use-now";

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** The thread list: search, filters, nesting, live status and previews without a reload. */
export function ThreadsScreen({ initial, canFilterUsers }: { initial: ThreadFilters; canFilterUsers: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState(initial);
  const [limit, setLimit] = useState(100);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const q = useDebounced(filters.q, 250);
  const now = useNow();
  const users = useQuery(trpc.admin.users.queryOptions(undefined, { enabled: canFilterUsers, staleTime: 60_000 }));

  const overview = useQuery(trpc.registry.overview.queryOptions());
  const agents = useMemo(() => new Map((overview.data?.agents ?? []).map((a) => [a.name, a])), [overview.data]);
  const input = {
    search: q.trim() || undefined,
    agentId: filters.agent || undefined,
    status: filters.status && filters.status !== "awaiting_approval" ? filters.status : undefined,
    awaitingApproval: filters.status === "awaiting_approval" || undefined,
    sort: filters.sort,
    owner: filters.owner || undefined,
    createdFrom: filters.from || undefined,
    createdTo: filters.to || undefined,
    limit,
  };
  const list = useQuery(
    trpc.chat.threadList.queryOptions(input, { placeholderData: keepPreviousData, staleTime: 1_000 }),
  );
  const live = useSubscription(
    trpc.chat.activity.subscriptionOptions(undefined, {
      onData: () => void queryClient.invalidateQueries({ queryKey: trpc.chat.threadList.pathKey() }),
    }),
  );

  // Keep the filters in the address, so a filtered list can be shared and survives a reload.
  const qs = filtersToQuery({ ...filters, q });
  useEffect(() => {
    window.history.replaceState(null, "", qs ? `/threads?${qs}` : "/threads");
  }, [qs]);

  const rows = useMemo(() => flattenTree(buildThreadTree(list.data?.threads ?? []), collapsed), [list.data, collapsed]);
  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const data = list.data;
  const shown = data ? data.threads.filter((t) => !t.context && (data.filtered || !t.parent_id)).length : 0;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Threads</h1>
        <span data-testid="running-count" className="text-sm text-slate-500 dark:text-slate-400">
          {data ? `${data.running} running now` : ""}
        </span>
        <span
          role="status"
          data-testid="live-indicator"
          data-state={live.status}
          className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400"
        >
          <span
            aria-hidden
            className={`h-2 w-2 rounded-full ${live.status === "pending" ? "bg-emerald-500" : "bg-amber-500"}`}
          />
          {live.status === "pending" ? "Live" : "Connecting…"}
        </span>
        <Link
          href="/threads/new"
          className="ml-auto rounded-lg bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          New thread
        </Link>
      </div>
      <ThreadFilterForm
        filters={filters}
        onChange={setFilters}
        agents={overview.data?.agents ?? []}
        users={(users.data ?? []).map((u) => ({ id: u.id, username: u.username }))}
      />
      {list.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          Could not load the threads: {list.error.message}
        </p>
      ) : list.isPending ? (
        <ul aria-busy="true" aria-label="Loading threads" className="flex flex-col gap-2">
          {[0, 1, 2].map((i) => (
            <li key={i} className="h-16 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />
          ))}
        </ul>
      ) : rows.length === 0 ? (
        <p
          data-testid="threads-empty"
          className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:text-slate-400 dark:border-slate-700"
        >
          {data?.filtered ? "No thread matches these filters." : "No threads yet. Start one with New thread."}
        </p>
      ) : (
        <>
          <p className="sr-only" role="status">
            {shown} thread{shown === 1 ? "" : "s"} shown
          </p>
          <ul
            aria-label="Threads"
            data-testid="thread-list"
            className={`flex flex-col gap-2 ${list.isPlaceholderData ? "opacity-60" : ""}`}
          >
            {rows.map(({ node, depth }) => (
              <ThreadRow
                key={node.thread.id}
                node={node}
                depth={depth}
                agent={agents.get(node.thread.agent_id)}
                now={now}
                collapsed={collapsed.has(node.thread.id)}
                onToggle={() => toggle(node.thread.id)}
              />
            ))}
          </ul>
          {data && data.total > shown ? (
            <button
              type="button"
              onClick={() => setLimit((l) => Math.min(500, l + 100))}
              disabled={limit >= 500}
              className="self-center rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              Show more ({data.total - shown} more)
            </button>
          ) : null}
        </>
      )}
    </div>
  );
}
