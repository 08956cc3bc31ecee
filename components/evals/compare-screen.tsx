"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "../ui/badge";
import { useTRPC } from "../trpc-provider";
import { card, errorText, tableClass } from "@/components/ui/styles";
import { asSummary, delta, pct, score, statusTone, usd } from "./format";

const linkClass = "text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "text-slate-600 dark:text-slate-300";
  if (line.startsWith("+")) return "bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100";
  if (line.startsWith("-")) return "bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100";
  if (line.startsWith("@@")) return "text-indigo-800 dark:text-indigo-200";
  return "";
}

/** Two experiments side by side: aggregates, each case's scores with deltas, and the diff of their definitions. */
export function CompareScreen({ a, b }: { a: string; b: string }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.evals.compare.queryOptions({ a, b }), enabled: Boolean(a && b) });
  if (!a || !b) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">Pick two experiments on the Evals page to compare them.</p>;
  if (q.error) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">{errorText(q.error)}</p>;
  if (!q.data) return <p className="text-sm text-slate-600 dark:text-slate-300">Loading…</p>;
  const { a: ea, b: eb, cases, definitionDiff } = q.data;
  const sa = asSummary(ea.summary);
  const sb = asSummary(eb.summary);
  const scorerNames = [...new Set([...Object.keys(sa?.scorers ?? {}), ...Object.keys(sb?.scorers ?? {})])];
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Compare experiments</h1>
        <Link href="/evals" className={`ml-auto text-sm ${linkClass}`}>
          All evals
        </Link>
      </div>
      <section className={card} aria-labelledby="aggregate-heading">
        <h2 id="aggregate-heading" className="mb-3 font-medium">Aggregate</h2>
        <table className={tableClass} data-testid="aggregate-table">
          <thead>
            <tr>
              <th>Measure</th>
              <th>
                A{" "}
                <Link href={`/evals/${ea.id}`} className={`font-mono text-xs ${linkClass}`}>
                  {ea.id.slice(0, 13)}…
                </Link>{" "}
                <Badge tone={statusTone(ea.status)}>{ea.status}</Badge>
              </th>
              <th>
                B{" "}
                <Link href={`/evals/${eb.id}`} className={`font-mono text-xs ${linkClass}`}>
                  {eb.id.slice(0, 13)}…
                </Link>{" "}
                <Badge tone={statusTone(eb.status)}>{eb.status}</Badge>
              </th>
              <th>Δ (B − A)</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Pass rate</td>
              <td>{pct(sa?.passRate)}</td>
              <td>{pct(sb?.passRate)}</td>
              <td>{sa && sb ? delta(sb.passRate - sa.passRate) : "–"}</td>
            </tr>
            {scorerNames.map((n) => (
              <tr key={n}>
                <td className="font-mono">{n} (mean)</td>
                <td>{score(sa?.scorers[n]?.mean)}</td>
                <td>{score(sb?.scorers[n]?.mean)}</td>
                <td>{sa?.scorers[n] && sb?.scorers[n] ? delta(sb.scorers[n].mean - sa.scorers[n].mean) : "–"}</td>
              </tr>
            ))}
            <tr>
              <td>Cost (with judge)</td>
              <td>{sa ? usd(sa.costUsd + sa.judgeCostUsd) : "–"}</td>
              <td>{sb ? usd(sb.costUsd + sb.judgeCostUsd) : "–"}</td>
              <td />
            </tr>
            <tr>
              <td>Mean latency</td>
              <td>{sa ? `${sa.meanLatencyMs} ms` : "–"}</td>
              <td>{sb ? `${sb.meanLatencyMs} ms` : "–"}</td>
              <td />
            </tr>
          </tbody>
        </table>
      </section>
      <section className={card} aria-labelledby="per-case-heading">
        <h2 id="per-case-heading" className="mb-3 font-medium">Per case</h2>
        <table className={tableClass}>
          <thead>
            <tr>
              <th>Case</th>
              <th>A</th>
              <th>B</th>
              <th>Score changes</th>
            </tr>
          </thead>
          <tbody>
            {cases.map((c) => (
              <tr key={c.caseId} data-testid="compare-case-row" className="align-top">
                <td>
                  <div className="font-medium">{c.caseId}</div>
                  <div className="max-w-xs text-xs text-slate-600 dark:text-slate-300">{c.input}</div>
                </td>
                {[c.a, c.b].map((side, i) => (
                  <td key={i} className="max-w-xs text-xs">
                    {side ? (
                      <>
                        <Badge tone={side.passed ? "emerald" : "red"}>{side.passed ? "pass" : "fail"}</Badge>
                        <div className="mt-1 whitespace-pre-wrap">{side.reply}</div>
                      </>
                    ) : (
                      "not in this experiment"
                    )}
                  </td>
                ))}
                <td className="text-xs">
                  {Object.entries(c.deltas).map(([n, d]) => (
                    <div key={n}>
                      <span className="font-mono">{n}</span> {delta(d)}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className={card} aria-labelledby="diff-heading">
        <h2 id="diff-heading" className="mb-3 font-medium">Definition changes</h2>
        {definitionDiff.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-300">The definitions are the same in both experiments.</p> : null}
        {definitionDiff.map((f) => (
          <div key={f.file} className="mb-4" data-testid="definition-diff">
            <h3 className="mb-1 font-mono text-sm">
              {f.file} <Badge tone={f.status === "changed" ? "amber" : f.status === "added" ? "emerald" : "red"}>{f.status}</Badge>
            </h3>
            <pre className="overflow-x-auto rounded-md border border-slate-200 p-2 text-xs dark:border-slate-700" aria-label={`Diff of ${f.file}`} tabIndex={0}>
              {f.patch
                .split("\n")
                .slice(2)
                .map((line, i) => (
                  <div key={i} className={lineClass(line)}>
                    {line || " "}
                  </div>
                ))}
            </pre>
          </div>
        ))}
      </section>
    </div>
  );
}
