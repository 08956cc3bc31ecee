import type { Row } from "./harness";

/**
 * Rows that compare scenarios of one run against the scale-out goals: the PostgreSQL step against the SQLite step
 * (goal ≤ 2×, wall time and process CPU) and the worker CPU per step with 2 and 4 workers against 1 (goal ±20%), with
 * the same ratio of the control (the bare SDK loop in as many processes) and the workers' ratio over it.
 * Rows of a scenario that did not run are left out.
 */
export function crossScenarioRows(rows: Row[]): Row[] {
  const value = (scenario: string, metric: string): number | null => {
    const row = rows.find((r) => r.scenario === scenario && r.metric === metric);
    return typeof row?.median === "number" && row.median > 0 ? row.median : null;
  };
  const round = (n: number) => Math.round(n * 100) / 100;
  const out: Row[] = [];
  const scenario = "goals, across scenarios";
  for (const [metric, label] of [
    ["ours (runtime, persisted, published)", "wall time"],
    ["ours: CPU time of the process per step", "process CPU"],
  ] as const) {
    const sqlite = value("1 per-step", metric);
    const pg = value("1 per-step, postgresql", metric);
    if (sqlite && pg) {
      out.push({ scenario, metric: `PostgreSQL step / SQLite step, ${label}`, median: round(pg / sqlite), p95: "", unit: "×", note: "goal ≤ 2" });
    }
  }
  const one = value("worker-scale ×200, 1 worker", "worker CPU per step");
  for (const n of [2, 4]) {
    const many = value(`worker-scale ×200, ${n} workers`, "worker CPU per step");
    if (one && many) {
      out.push({ scenario, metric: `worker CPU per step, ${n} workers / 1 worker`, median: round(many / one), p95: "", unit: "×", note: "goal 0.8–1.2" });
    }
    // The control (bench/process-control.ts): what N busy processes cost this machine per step, whoever's code.
    const controlOne = value("worker-scale control ×200, 1 process", "bare SDK loop (a): CPU per step");
    const control = value(`worker-scale control ×200, ${n} processes`, "bare SDK loop (a): CPU per step");
    if (controlOne && control) {
      const share = control / controlOne;
      out.push({ scenario, metric: `bare SDK loop CPU per step, ${n} processes / 1 (control)`, median: round(share), p95: "", unit: "×", note: "this machine's share" });
      if (one && many) out.push({ scenario, metric: `worker ratio over the control's, ${n} workers`, median: round(many / one / share), p95: "", unit: "×", note: "ours alone; 0.8–1.2" });
    }
  }
  return out;
}
