"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCost, formatTokens, shortId } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-[0.7rem] uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className="font-semibold tabular-nums">
        {value}
      </dd>
    </div>
  );
}

/** Tokens and cost of the thread and of its subtree of child threads, from the request logs; live while it runs. */
export function UsagePanel({ threadId }: { threadId: string }) {
  const trpc = useTRPC();
  const usage = useQuery(trpc.chat.usage.queryOptions({ threadId }, { staleTime: 2_000 }));
  if (usage.isPending) return <p className="text-xs text-slate-500 dark:text-slate-400">Loading usage…</p>;
  if (usage.isError)
    return (
      <p role="alert" className="text-xs text-red-700 dark:text-red-300">
        Usage unavailable: {usage.error.message}
      </p>
    );
  const u = usage.data;
  const hasChildren = u.subtree.threads > 1;
  return (
    <section aria-labelledby="usage-heading" data-testid="usage-panel" className="flex flex-col gap-3">
      <h2 id="usage-heading" className="text-sm font-semibold">
        Usage
      </h2>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <Figure label="Cost" value={formatCost(u.own.cost)} testId="usage-cost" />
        <Figure label="Requests" value={String(u.own.requests)} testId="usage-requests" />
        <Figure label="Input tokens" value={formatTokens(u.own.inputTokens)} testId="usage-input" />
        <Figure label="Output tokens" value={formatTokens(u.own.outputTokens)} testId="usage-output" />
        {u.own.cachedTokens > 0 ? <Figure label="Cached" value={formatTokens(u.own.cachedTokens)} /> : null}
      </dl>
      {hasChildren ? (
        <div className="rounded-lg bg-slate-50 p-2 text-xs dark:bg-slate-800/60">
          <p className="font-medium">
            With {u.subtree.threads - 1} child thread{u.subtree.threads === 2 ? "" : "s"}:{" "}
            <span data-testid="usage-subtree-cost" className="tabular-nums">
              {formatCost(u.subtree.cost)}
            </span>
            , {formatTokens(u.subtree.inputTokens + u.subtree.outputTokens)} tokens, {u.subtree.requests} requests
          </p>
        </div>
      ) : null}
      {u.threads.length > 1 ? (
        <table data-testid="usage-table" className="w-full table-fixed border-collapse text-xs">
          <caption className="sr-only">Usage per thread</caption>
          <colgroup>
            <col />
            <col className="w-10" />
            <col className="w-16" />
            <col className="w-16" />
          </colgroup>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-500 dark:border-slate-700 dark:text-slate-400">
              <th scope="col" className="py-1 pr-2 font-medium">
                Thread
              </th>
              <th scope="col" className="py-1 pl-2 text-right font-medium" title="Requests">
                Reqs
              </th>
              <th scope="col" className="py-1 pl-2 text-right font-medium">
                Tokens
              </th>
              <th scope="col" className="py-1 pl-2 text-right font-medium">
                Cost
              </th>
            </tr>
          </thead>
          <tbody>
            {u.threads.map((t) => (
              <tr key={t.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <td
                  className="truncate py-1 pr-2"
                  title={t.id === threadId ? undefined : `${t.name ?? t.agent_id} ${t.id}`}
                >
                  {t.id === threadId ? (
                    "this thread"
                  ) : (
                    <Link className="text-indigo-700 underline dark:text-indigo-300" href={`/threads/${t.id}`}>
                      {t.name ?? t.agent_id} {shortId(t.id)}
                    </Link>
                  )}
                </td>
                <td className="whitespace-nowrap py-1 pl-2 text-right tabular-nums">{t.requests}</td>
                <td className="whitespace-nowrap py-1 pl-2 text-right tabular-nums">
                  {formatTokens(t.inputTokens + t.outputTokens)}
                </td>
                <td className="whitespace-nowrap py-1 pl-2 text-right tabular-nums">{formatCost(t.cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {u.models.length > 0 ? (
        <ul className="flex flex-col gap-0.5 text-xs text-slate-600 dark:text-slate-300" aria-label="Usage per model">
          {u.models.map((m) => (
            <li key={m.model} className="flex justify-between gap-2">
              <span className="font-mono">{m.model}</span>
              <span className="tabular-nums">
                {m.requests} req · {formatCost(m.cost)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">No model requests yet.</p>
      )}
    </section>
  );
}
