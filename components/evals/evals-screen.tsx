"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "../ui/badge";
import { buttonClass } from "../ui/button";
import { useTRPC } from "../trpc-provider";
import { card, errorText, inputClass, tableClass } from "@/components/ui/styles";
import { asSummary, pct, statusTone, usd } from "./format";

/** The evals of `agents/evals/`, a run button for each, and the experiments table with a two-way compare. */
export function EvalsScreen() {
  const trpc = useTRPC();
  const router = useRouter();
  const client = useQueryClient();
  const evals = useQuery(trpc.evals.list.queryOptions());
  const experiments = useQuery({
    ...trpc.evals.experiments.queryOptions({}),
    refetchInterval: (q) => (q.state.data?.experiments.some((e) => e.status === "running") ? 1000 : false),
  });
  const start = useMutation(trpc.evals.start.mutationOptions({ onSuccess: () => client.invalidateQueries({ queryKey: trpc.evals.experiments.queryKey() }) }));
  const [picked, setPicked] = useState<string[]>([]);
  const [model, setModel] = useState("");
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));

  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">Evals</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Evals live in <code>agents/evals/</code>. Each run is an experiment: every case runs as a real thread, is scored, and its cost and latency are kept. The command line runs the same: <code>npx studio eval &lt;name&gt;</code>.
        </p>
      </div>
      {evals.error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{errorText(evals.error)}</p> : null}
      {start.error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{errorText(start.error)}</p> : null}
      <section className={card} aria-labelledby="evals-heading">
        <div className="mb-3 flex flex-wrap items-center gap-3">
          <h2 id="evals-heading" className="font-medium">Evals</h2>
          <label className="ml-auto flex items-center gap-2 text-sm">
            Model
            <select className={`${inputClass} py-1`} value={model} onChange={(ev) => setModel(ev.target.value)}>
              <option value="">each prompt&apos;s own</option>
              {(evals.data?.models ?? []).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        </div>
        {evals.data && evals.data.evals.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-300">No evals yet: add a file to agents/evals/ with defineEval.</p> : null}
        {evals.data && evals.data.evals.length > 0 ? (
          <table className={tableClass}>
            <thead>
              <tr>
                <th>Eval</th>
                <th>Agent</th>
                <th>Cases</th>
                <th>Scorers</th>
                <th>Thresholds</th>
                <th>
                  <span className="sr-only">Run</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {evals.data.evals.map((e) => (
                <tr key={e.name} data-testid="eval-row">
                  <td>
                    <div className="font-medium">{e.name}</div>
                    <div className="font-mono text-xs text-slate-600 dark:text-slate-300">{e.file}</div>
                  </td>
                  <td>{e.agent}</td>
                  <td>{e.cases}</td>
                  <td className="text-xs">{e.scorers.join(", ")}</td>
                  <td className="text-xs">{Object.entries(e.thresholds).map(([k, v]) => `${k} ≥ ${v}`).join(", ") || "–"}</td>
                  <td>
                    <button type="button" className={buttonClass("primary", "sm")} disabled={start.isPending} onClick={() => start.mutate({ name: e.name, ...(model ? { model } : {}) })}>
                      Run {e.name}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {evals.data?.diagnostics.length ? (
          <ul className="mt-3 list-disc pl-5 text-sm text-red-700 dark:text-red-300" aria-label="Eval problems">
            {evals.data.diagnostics.map((d, i) => (
              <li key={i}>
                <span className="font-mono">{d.file}{d.field ? ` ${d.field}` : ""}</span>: {d.message} {d.fix}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section className={card} aria-labelledby="experiments-heading">
        <div className="mb-3 flex items-center gap-3">
          <h2 id="experiments-heading" className="font-medium">Experiments</h2>
          <button type="button" className={buttonClass("secondary", "sm", "ml-auto")} disabled={picked.length !== 2} onClick={() => router.push(`/evals/compare?a=${picked[0]}&b=${picked[1]}`)}>
            Compare selected ({picked.length}/2)
          </button>
        </div>
        {experiments.data && experiments.data.experiments.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-300">No experiments yet: run an eval.</p> : null}
        {experiments.data && experiments.data.experiments.length > 0 ? (
          <table className={tableClass}>
            <thead>
              <tr>
                <th>
                  <span className="sr-only">Select</span>
                </th>
                <th>Experiment</th>
                <th>Eval</th>
                <th>Status</th>
                <th>Pass rate</th>
                <th>Cost</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {experiments.data.experiments.map((e) => {
                const s = asSummary(e.summary);
                return (
                  <tr key={e.id} data-testid="experiment-row">
                    <td>
                      <input type="checkbox" aria-label={`Select experiment ${e.id}`} checked={picked.includes(e.id)} onChange={() => toggle(e.id)} />
                    </td>
                    <td>
                      <Link href={`/evals/${e.id}`} className="font-mono text-xs text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
                        {e.id.slice(0, 13)}…
                      </Link>
                    </td>
                    <td>{e.eval}</td>
                    <td>
                      <Badge tone={statusTone(e.status)}>{e.status}</Badge>
                    </td>
                    <td>{s ? `${pct(s.passRate)} (${s.passed}/${s.cases})` : "–"}</td>
                    <td>{s ? usd(s.costUsd + s.judgeCostUsd) : "–"}</td>
                    <td className="text-xs">{new Date(e.created_at).toLocaleString()}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : null}
      </section>
    </div>
  );
}
