"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { formatCost, formatDuration, formatTokens } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";
import { LogDialog } from "./log-dialog";
import type { Timeline, TimelineItem } from "./types";

const MAX_ROWS = 1_500;

function threadLabel(t: Timeline["threads"][string] | undefined, id: string) {
  return t ? `${t.agent}${t.name ? ` “${t.name}”` : ""}` : id.slice(0, 8);
}

/**
 * LLM requests and tool calls across the subtree on one time axis (Gantt-like): where the time and the money go.
 * Each LLM request opens its full log.
 */
export function TimelinePanel({ rootId }: { rootId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.inspector.timeline.queryOptions({ threadId: rootId }, { placeholderData: keepPreviousData }));
  const [open, setOpen] = useState<string | null>(null);
  const data = q.data;
  const scale = useMemo(() => {
    const items = data?.items ?? [];
    const now = Date.now();
    const start = Math.min(...items.map((i) => i.start), now);
    const end = Math.max(...items.map((i) => i.end ?? now), start + 1);
    return { start, span: end - start };
  }, [data]);
  if (q.isError) return <p role="alert">{q.error.message}</p>;
  if (!data) return <p aria-busy="true">Loading the timeline…</p>;
  const llm = data.items.filter((i) => i.kind === "llm");
  const totals = llm.reduce(
    (a, i) => ({ tokens: a.tokens + (i.kind === "llm" ? i.inputTokens + i.outputTokens : 0), cost: a.cost + (i.kind === "llm" ? i.cost : 0) }),
    { tokens: 0, cost: 0 },
  );
  const bar = (i: TimelineItem) => {
    const left = ((i.start - scale.start) / scale.span) * 100;
    const width = Math.max(0.4, (((i.end ?? Date.now()) - i.start) / scale.span) * 100);
    return { left: `${left}%`, width: `${Math.min(width, 100 - left)}%` };
  };
  return (
    <section aria-label="Timeline" className="flex flex-col gap-2">
      <p data-testid="timeline-summary" className="text-sm text-slate-600 dark:text-slate-300">
        {llm.length} LLM request{llm.length === 1 ? "" : "s"} and {data.items.length - llm.length} tool call
        {data.items.length - llm.length === 1 ? "" : "s"} over {formatDuration(scale.span)} · {formatTokens(totals.tokens)} tokens ·{" "}
        {formatCost(totals.cost)}
      </p>
      <div className="overflow-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full min-w-[52rem] text-sm" data-testid="timeline">
          <thead className="bg-slate-50 text-left text-xs text-slate-500 dark:bg-slate-900">
            <tr>
              <th className="px-2 py-1">Thread</th>
              <th className="px-2 py-1">What</th>
              <th className="w-[30%] px-2 py-1">When</th>
              <th className="px-2 py-1 text-right">Duration</th>
              <th className="px-2 py-1 text-right">TTFT</th>
              <th className="px-2 py-1 text-right">Tokens in/out</th>
              <th className="px-2 py-1 text-right">Cost</th>
            </tr>
          </thead>
          <tbody>
            {data.items.slice(0, MAX_ROWS).map((i) => (
              <tr
                key={`${i.kind}:${i.threadId}:${i.id}`}
                data-testid={i.kind === "llm" ? "timeline-llm" : "timeline-tool"}
                data-thread={i.threadId}
                className="border-t border-slate-100 dark:border-slate-800"
              >
                <td className="max-w-48 truncate px-2 py-1 text-xs">{threadLabel(data.threads[i.threadId], i.threadId)}</td>
                <td className="px-2 py-1">
                  {i.kind === "llm" ? (
                    <button type="button" className="font-mono text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300" onClick={() => setOpen(i.id)}>
                      {i.label}
                      {i.side ? ` · side ${i.side}` : ""}
                    </button>
                  ) : (
                    <span className="font-mono">⚙ {i.label}</span>
                  )}
                  {i.status === "error" ? <span className="ml-1 text-xs text-red-700 dark:text-red-300">error</span> : null}
                </td>
                <td className="px-2 py-1">
                  <div className="relative h-3 rounded bg-slate-100 dark:bg-slate-800">
                    <div
                      className={`absolute top-0 h-3 rounded ${i.kind === "llm" ? "bg-indigo-500" : "bg-amber-500"}`}
                      style={bar(i)}
                      title={new Date(i.start).toLocaleTimeString()}
                    />
                  </div>
                </td>
                <td className="px-2 py-1 text-right tabular-nums">{i.end ? formatDuration(i.end - i.start) : "running"}</td>
                <td className="px-2 py-1 text-right tabular-nums">{i.kind === "llm" && i.ttftMs !== null ? formatDuration(i.ttftMs) : ""}</td>
                <td className="px-2 py-1 text-right tabular-nums" data-testid="timeline-tokens">
                  {i.kind === "llm" ? `${i.inputTokens} / ${i.outputTokens}` : ""}
                </td>
                <td className="px-2 py-1 text-right tabular-nums" data-testid="timeline-cost">
                  {i.kind === "llm" ? formatCost(i.cost) : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.items.length > MAX_ROWS || data.truncated ? <p className="text-xs text-slate-500">Only the first {MAX_ROWS} entries are shown.</p> : null}
      {open ? <LogDialog logId={open} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}
