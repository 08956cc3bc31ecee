"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useMemo, useRef, useState } from "react";
import { formatCost, formatDuration, formatTokens } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";
import { LogDialog } from "./log-dialog";
import { TIMELINE_ROW, TimelineRow } from "./timeline-row";

/**
 * LLM requests and tool calls across the subtree on one time axis (Gantt-like): where the time and the money go.
 * Each LLM request opens its full log. The rows are virtualized: thousands of entries keep a screenful in the DOM.
 */
export const TimelinePanel = memo(function TimelinePanel({ rootId }: { rootId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.inspector.timeline.queryOptions({ threadId: rootId }, { placeholderData: keepPreviousData }));
  const [open, setOpen] = useState<string | null>(null);
  const data = q.data;
  const items = useMemo(() => data?.items ?? [], [data]);
  const summary = useMemo(() => {
    const now = Date.now();
    let start = now;
    let end = 0;
    let requests = 0;
    let tokens = 0;
    let cost = 0;
    for (const i of items) {
      start = Math.min(start, i.start);
      end = Math.max(end, i.end ?? now);
      if (i.kind === "llm") {
        requests += 1;
        tokens += i.inputTokens + i.outputTokens;
        cost += i.cost;
      }
    }
    end = Math.max(end, start + 1);
    return { start, span: end - start, requests, tokens, cost };
  }, [items]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TIMELINE_ROW,
    getItemKey: (n) => {
      const i = items[n];
      return i ? `${i.kind}:${i.threadId}:${i.id}` : n;
    },
    overscan: 12,
  });
  if (q.isError) return <p role="alert">{q.error.message}</p>;
  if (!data) return <p aria-busy="true">Loading the timeline…</p>;
  const rows = virtualizer.getVirtualItems();
  const before = rows[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  const tools = items.length - summary.requests;
  return (
    <section aria-label="Timeline" className="flex flex-col gap-2">
      <p data-testid="timeline-summary" className="text-sm text-slate-600 dark:text-slate-300">
        {summary.requests} LLM request{summary.requests === 1 ? "" : "s"} and {tools} tool call{tools === 1 ? "" : "s"} over{" "}
        {formatDuration(summary.span)} · {formatTokens(summary.tokens)} tokens · {formatCost(summary.cost)}
      </p>
      <div ref={scrollRef} data-testid="timeline-scroll" className="max-h-[calc(100vh-16rem)] min-h-40 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full min-w-[52rem] table-fixed text-sm" data-testid="timeline" data-count={items.length}>
          <colgroup>
            <col className="w-[18%]" />
            <col className="w-[16%]" />
            <col className="w-[28%]" />
            <col className="w-[9%]" />
            <col className="w-[8%]" />
            <col className="w-[12%]" />
            <col className="w-[9%]" />
          </colgroup>
          <thead className="sticky top-0 z-10 bg-slate-50 text-left text-xs text-slate-500 dark:text-slate-400 dark:bg-slate-900">
            <tr>
              <th className="px-2 py-1">Thread</th>
              <th className="px-2 py-1">What</th>
              <th className="px-2 py-1">When</th>
              <th className="px-2 py-1 text-right">Duration</th>
              <th className="px-2 py-1 text-right">TTFT</th>
              <th className="px-2 py-1 text-right">Tokens in/out</th>
              <th className="px-2 py-1 text-right">Cost</th>
            </tr>
          </thead>
          <tbody>
            {before > 0 ? (
              <tr aria-hidden style={{ height: before }}>
                <td colSpan={7} />
              </tr>
            ) : null}
            {rows.map((v) => {
              const i = items[v.index]!;
              return (
                <TimelineRow key={v.key} item={i} thread={data.threads[i.threadId]} start={summary.start} span={summary.span} onOpen={setOpen} />
              );
            })}
            {after > 0 ? (
              <tr aria-hidden style={{ height: after }}>
                <td colSpan={7} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {data.truncated ? <p className="text-xs text-slate-500 dark:text-slate-400">Very large subtree: only the first 3,000 entries are shown.</p> : null}
      {open ? <LogDialog logId={open} onClose={() => setOpen(null)} onNavigate={setOpen} /> : null}
    </section>
  );
});
