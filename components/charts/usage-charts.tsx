"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatCost, formatTokens } from "@/components/threads/format";
import { useTRPC } from "@/components/trpc-provider";
import { cumulativeSeries, timeTick, totalsBy, type RequestPoint } from "./chart-data";

const axis = { fontSize: 11, fill: "currentColor" };
const chartStyle = { width: "100%", height: 240 };
const COLORS = { subtree: "#4f46e5", thread: "#0d9488", input: "#6366f1", output: "#f59e0b" };
const card = "flex min-w-0 flex-col gap-2 rounded-lg border border-slate-200 p-3 text-slate-700 dark:border-slate-700 dark:text-slate-200";

/**
 * Cost and tokens over time of a subtree and of one thread in it, and per model, from the subtree's request log (the
 * Inspector's timeline query). Each chart has a table of the same numbers for screen readers and exact reading.
 */
export function UsageCharts({ rootId, threadId, threadLabel }: { rootId: string; threadId: string; threadLabel: string }) {
  const trpc = useTRPC();
  const timeline = useQuery(trpc.inspector.timeline.queryOptions({ threadId: rootId }, { refetchInterval: 5_000 }));
  const requests = useMemo<RequestPoint[]>(
    () =>
      (timeline.data?.items ?? []).flatMap((i) =>
        i.kind === "llm" ? [{ threadId: i.threadId, label: i.label, start: i.start, inputTokens: i.inputTokens, outputTokens: i.outputTokens, cost: i.cost }] : [],
      ),
    [timeline.data],
  );
  const series = useMemo(() => cumulativeSeries(requests, threadId), [requests, threadId]);
  const models = useMemo(() => totalsBy(requests, (r) => r.label), [requests]);
  const threads = timeline.data?.threads ?? {};
  const perThread = useMemo(() => totalsBy(requests, (r) => r.threadId), [requests]);

  if (timeline.error) return <p role="alert" className="text-sm text-red-700 dark:text-red-400">{timeline.error.message}</p>;
  if (!timeline.data) return <p aria-busy="true" className="text-sm text-slate-600 dark:text-slate-300">Loading the request log…</p>;
  if (requests.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">No model requests yet: the charts fill in as the thread runs.</p>;
  const last = series.at(-1)!;
  const tick = (v: unknown) => timeTick(Number(v), series[0]!.at, last.at);
  const scope = threadId === rootId ? "this thread" : threadLabel;

  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="usage-charts">
      <figure className={card} data-testid="chart-cost">
        <figcaption className="text-sm font-semibold">
          Cost over time: subtree {formatCost(last.subtreeCost)}, {scope} {formatCost(last.threadCost)}
        </figcaption>
        <LineChart responsive style={chartStyle} data={series} margin={{ left: 8, right: 8, top: 8 }}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
          <XAxis dataKey="at" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={tick} tick={axis} />
          <YAxis tickFormatter={(v: number) => formatCost(v)} tick={axis} width={64} />
          <Tooltip labelFormatter={tick} formatter={(v) => formatCost(Number(v))} />
          <Legend />
          <Line type="stepAfter" dataKey="subtreeCost" name="Subtree" stroke={COLORS.subtree} dot={false} isAnimationActive={false} />
          <Line type="stepAfter" dataKey="threadCost" name={scope} stroke={COLORS.thread} dot={false} isAnimationActive={false} />
        </LineChart>
      </figure>
      <figure className={card} data-testid="chart-tokens">
        <figcaption className="text-sm font-semibold">
          Tokens over time: subtree {formatTokens(last.subtreeTokens)}, {scope} {formatTokens(last.threadTokens)}
        </figcaption>
        <LineChart responsive style={chartStyle} data={series} margin={{ left: 8, right: 8, top: 8 }}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
          <XAxis dataKey="at" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={tick} tick={axis} />
          <YAxis tickFormatter={(v: number) => formatTokens(v)} tick={axis} width={56} />
          <Tooltip labelFormatter={tick} formatter={(v) => formatTokens(Number(v))} />
          <Legend />
          <Line type="stepAfter" dataKey="subtreeTokens" name="Subtree" stroke={COLORS.subtree} dot={false} isAnimationActive={false} />
          <Line type="stepAfter" dataKey="threadTokens" name={scope} stroke={COLORS.thread} dot={false} isAnimationActive={false} />
        </LineChart>
      </figure>
      <figure className={card} data-testid="chart-models">
        <figcaption className="text-sm font-semibold">Tokens per model (subtree)</figcaption>
        <BarChart responsive style={chartStyle} data={models} margin={{ left: 8, right: 8, top: 8 }}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
          <XAxis dataKey="key" tick={axis} />
          <YAxis tickFormatter={(v: number) => formatTokens(v)} tick={axis} width={56} />
          <Tooltip formatter={(v) => formatTokens(Number(v))} />
          <Legend />
          <Bar dataKey="input" name="Input" stackId="t" fill={COLORS.input} isAnimationActive={false} />
          <Bar dataKey="output" name="Output" stackId="t" fill={COLORS.output} isAnimationActive={false} />
        </BarChart>
      </figure>
      <div className={card}>
        <Totals caption="Per model" rows={models.map((m) => ({ ...m, name: m.key }))} testId="totals-models" />
        <Totals
          caption="Per thread"
          rows={perThread.map((t) => ({ ...t, name: threads[t.key]?.name ?? threads[t.key]?.agent ?? t.key }))}
          testId="totals-threads"
        />
      </div>
    </div>
  );
}

function Totals({ caption, rows, testId }: { caption: string; rows: { key: string; name: string; requests: number; input: number; output: number; cost: number }[]; testId: string }) {
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <caption className="pb-1 text-left text-sm font-semibold">{caption}</caption>
      <thead>
        <tr className="text-left text-xs text-slate-600 dark:text-slate-300">
          <th scope="col" className="py-1 pr-2 font-medium">Name</th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">Requests</th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">Tokens</th>
          <th scope="col" className="py-1 text-right font-medium">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-t border-slate-100 dark:border-slate-800">
            <th scope="row" className="max-w-[12rem] truncate py-1 pr-2 text-left font-mono font-normal">{r.name}</th>
            <td className="py-1 pr-2 text-right tabular-nums">{r.requests}</td>
            <td className="py-1 pr-2 text-right tabular-nums">{formatTokens(r.input + r.output)}</td>
            <td className="py-1 text-right tabular-nums">{formatCost(r.cost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
