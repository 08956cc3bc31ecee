import type { ExperimentSummary } from "@/shared/experiment-summary";

export type Summary = ExperimentSummary;

export const pct = (n: number | undefined) => (n === undefined ? "–" : `${Math.round(n * 1000) / 10}%`);
export const usd = (n: number | undefined) => (n === undefined ? "–" : `$${n.toFixed(6)}`);
export const score = (n: number | undefined | null) => (n === undefined || n === null ? "–" : n.toFixed(2));

/** A signed delta for display: `+0.25`, `-1.00`, `±0`. */
export function delta(n: number | null | undefined): string {
  if (n === null || n === undefined) return "–";
  if (n === 0) return "±0";
  return `${n > 0 ? "+" : ""}${n.toFixed(2)}`;
}

export function statusTone(status: string): "emerald" | "red" | "amber" | "neutral" {
  if (status === "passed" || status === "done") return "emerald";
  if (status === "failed" || status === "error") return "red";
  if (status === "running" || status === "pending") return "amber";
  return "neutral";
}

export const asSummary = (s: Record<string, unknown> | null | undefined): Summary | null => (s ? (s as unknown as Summary) : null);
