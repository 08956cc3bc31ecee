"use client";

import { useId } from "react";
import { inputClass } from "@/components/ui/styles";
import type { AgentSummary } from "@/components/chat/types";
import type { ThreadFilters } from "./filter-query";

const field = inputClass.replace("px-3 py-2", "px-2.5 py-1.5");
const label = "text-xs font-medium text-slate-600 dark:text-slate-300";

/** The thread list's search, filters (agent, status, owner, creation dates, running now) and sort order. */
export function ThreadFilterForm({
  filters,
  onChange,
  agents,
  users,
}: {
  filters: ThreadFilters;
  onChange: (f: ThreadFilters) => void;
  agents: readonly AgentSummary[];
  /** Accounts an administrator may filter by (empty otherwise). */
  users: readonly { id: string; username: string }[];
}) {
  const id = useId();
  const set = (patch: Partial<ThreadFilters>) => onChange({ ...filters, ...patch });
  return (
    <form
      role="search"
      aria-label="Filter threads"
      onSubmit={(e) => e.preventDefault()}
      className="flex flex-wrap items-end gap-3"
    >
      <div className="flex min-w-[14rem] flex-1 flex-col gap-1">
        <label htmlFor={`${id}-q`} className={label}>
          Search by id, tag or name
        </label>
        <input
          id={`${id}-q`}
          type="search"
          value={filters.q}
          onChange={(e) => set({ q: e.target.value })}
          placeholder="e.g. 3f2a or #support"
          className={field}
          data-testid="thread-search"
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-agent`} className={label}>
          Agent
        </label>
        <select
          id={`${id}-agent`}
          value={filters.agent}
          onChange={(e) => set({ agent: e.target.value })}
          className={field}
          data-testid="thread-agent-filter"
        >
          <option value="">All agents</option>
          {agents.map((a) => (
            <option key={a.name} value={a.name}>
              {a.title ?? a.name}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-status`} className={label}>
          Status
        </label>
        <select
          id={`${id}-status`}
          value={filters.status}
          onChange={(e) => set({ status: e.target.value as ThreadFilters["status"] })}
          className={field}
          data-testid="thread-status-filter"
        >
          <option value="">Any status</option>
          <option value="running">Running</option>
          <option value="idle">Waiting</option>
          <option value="terminated">Terminated</option>
          <option value="awaiting_approval">Awaiting approval</option>
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-owner`} className={label}>
          Owner
        </label>
        <select
          id={`${id}-owner`}
          value={filters.owner}
          onChange={(e) => set({ owner: e.target.value })}
          className={field}
          data-testid="thread-owner-filter"
        >
          <option value="">Everyone</option>
          <option value="me">Mine</option>
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.username}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-from`} className={label}>
          Created from
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(e) => set({ from: e.target.value })}
          className={field}
          data-testid="thread-from"
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-to`} className={label}>
          to
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => set({ to: e.target.value })}
          className={field}
          data-testid="thread-to"
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-sort`} className={label}>
          Sort by
        </label>
        <select
          id={`${id}-sort`}
          value={filters.sort}
          onChange={(e) => set({ sort: e.target.value as ThreadFilters["sort"] })}
          className={field}
          data-testid="thread-sort"
        >
          <option value="activity">Latest activity</option>
          <option value="created">Newest</option>
        </select>
      </div>
      <label className="flex items-center gap-2 pb-1.5 text-sm">
        <input
          type="checkbox"
          checked={filters.status === "running"}
          onChange={(e) => set({ status: e.target.checked ? "running" : "" })}
          data-testid="thread-running-now"
          className="h-4 w-4 accent-indigo-600"
        />
        Running now
      </label>
    </form>
  );
}
