"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "../ui/badge";
import { useTRPC } from "../trpc-provider";
import { card, errorText, tableClass } from "@/components/ui/styles";
import { asSummary, pct, score, statusTone, usd } from "./format";

const linkClass = "text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

/** One experiment: its aggregates and thresholds, then every case with its scores, reply, cost and thread. */
export function ExperimentScreen({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.evals.experiment.queryOptions({ id }), refetchInterval: (x) => (x.state.data?.experiment.status === "running" ? 1000 : false) });
  if (q.error) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">{errorText(q.error)}</p>;
  if (!q.data) return <p className="text-sm text-slate-600 dark:text-slate-300">Loading…</p>;
  const { experiment: e, results } = q.data;
  const s = asSummary(e.summary);
  const model = typeof e.definition.model === "string" ? e.definition.model : null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Experiment of {e.eval}</h1>
        <Badge tone={statusTone(e.status)}>{e.status}</Badge>
        <Link href="/evals" className={`ml-auto text-sm ${linkClass}`}>
          All evals
        </Link>
      </div>
      <p className="font-mono text-xs text-slate-600 dark:text-slate-300">
        {e.id} · agent {e.agent}
        {model ? ` · model ${model}` : ""} · concurrency {e.concurrency}
      </p>
      {e.error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{e.error}</p> : null}
      {s ? (
        <section className={card} aria-labelledby="summary-heading">
          <h2 id="summary-heading" className="mb-2 font-medium">Summary</h2>
          <p className="text-sm" data-testid="experiment-summary">
            Pass rate {pct(s.passRate)} ({s.passed}/{s.cases}) · cost {usd(s.costUsd)} + judge {usd(s.judgeCostUsd)} · {s.inputTokens} tokens in, {s.outputTokens} out · mean latency {s.meanLatencyMs} ms
          </p>
          <ul className="mt-2 text-sm">
            {Object.entries(s.scorers).map(([name, v]) => (
              <li key={name}>
                <span className="font-mono">{name}</span>: mean {score(v.mean)}, passed {pct(v.passRate)}
              </li>
            ))}
          </ul>
          {s.misses.map((m) => (
            <p key={m.name} className="mt-2 text-sm text-red-700 dark:text-red-300">
              Threshold missed: {m.name} is {score(m.actual)}, below {m.threshold}
            </p>
          ))}
        </section>
      ) : null}
      <section className={card} aria-labelledby="cases-heading">
        <h2 id="cases-heading" className="mb-3 font-medium">Cases</h2>
        <table className={tableClass}>
          <thead>
            <tr>
              <th>Case</th>
              <th>Result</th>
              <th>Scores</th>
              <th>Reply</th>
              <th>Cost</th>
              <th>Latency</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.case_id} data-testid="case-row" className="align-top">
                <td>
                  <div className="font-medium">{r.case_id}</div>
                  {r.thread_id ? (
                    <Link href={`/threads/${r.thread_id}?view=inspector`} className={`text-xs ${linkClass}`}>
                      Open thread
                    </Link>
                  ) : null}
                </td>
                <td>
                  <Badge tone={r.passed ? "emerald" : statusTone(r.status === "done" ? "failed" : r.status)}>{r.passed ? "pass" : r.status === "done" ? "fail" : r.status}</Badge>
                  {r.error ? <div className="text-xs text-red-700 dark:text-red-300">{r.error}</div> : null}
                </td>
                <td className="text-xs">
                  {r.scores.map((x) => (
                    <div key={x.scorer} title={x.reason}>
                      <span className="font-mono">{x.scorer}</span> {score(x.score)} {x.passed ? "" : `· ${x.reason}`}
                    </div>
                  ))}
                </td>
                <td className="max-w-xs text-xs whitespace-pre-wrap">{r.reply}</td>
                <td className="text-xs">{usd(r.cost_usd + r.judge_cost_usd)}</td>
                <td className="text-xs">{r.latency_ms} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
