import type { Row } from "./harness";

/**
 * What the machine allows the black-box goals, from figures measured in the same run (medians over the rounds):
 *
 * - a CPU floor: a load cannot end before the CPU it needs, spread over every core, is spent. With the app's CPU per
 *   thread (or child) and the scripted server's and client's beside it, N threads need N × (app + others) ms of CPU,
 *   so no schedule finishes them in less than that over the cores. The ratio against the bare loops that this floor
 *   gives, and the app's CPU per thread that the goal's ratio would leave room for, say whether a ratio is bound by
 *   the app's CPU (a measured ratio near its floor) or by waiting (far above it);
 * - a floor for the p95 goal that holds for any client of the same model server: a thread at the 95th percentile is
 *   idle only once 95 % of the threads are, which takes at least 95 % of the time the bare loops needed for the whole
 *   burst (they make the same model calls with nothing else around them).
 */
export interface BoundInputs {
  threads: number;
  children: number;
  cores: number;
  /** Medians over the rounds, ms: */
  ours: number;
  bare: number;
  alone: number;
  /** App CPU per thread under the load, and the scripted server's + client's per thread. */
  appCpu: number;
  othersCpu: number;
  fan: number;
  fanBare: number;
  fanCpu: number;
  fanOthersCpu: number;
  /** The goal's ratio against the bare baseline (2). */
  goal: number;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

export function boundRows(b: BoundInputs): Row[] {
  const s = "black-box bounds";
  const floor = (n: number, app: number, others: number) => (n * (app + others)) / b.cores;
  const allowed = (n: number, bare: number, others: number) => (b.cores * b.goal * bare - n * others) / n;
  const loadFloor = floor(b.threads, b.appCpu, b.othersCpu);
  const fanFloor = floor(b.children, b.fanCpu, b.fanOthersCpu);
  return [
    {
      scenario: s,
      metric: `${b.threads}×: ratio ours/bare that the CPU spent allows at best`,
      median: r2(loadFloor / b.bare),
      p95: "",
      unit: "×",
      note: `(app + others) × N / ${b.cores} cores; measured ${r2(b.ours / b.bare)}× is ${r2(b.ours / loadFloor)}× this floor`,
    },
    {
      scenario: s,
      metric: `${b.threads}×: app CPU per thread a ${b.goal}× ratio leaves room for`,
      median: r2(allowed(b.threads, b.bare, b.othersCpu)),
      p95: r2(b.appCpu),
      unit: "ms",
      note: "median column: the room, all cores busy; p95 column: measured",
    },
    {
      scenario: s,
      metric: `${b.threads}×: POST → idle p95 / alone, floor for any client`,
      median: r2((0.95 * b.bare) / b.alone),
      p95: "",
      unit: "×",
      note: "95% of the bare burst's time over ours alone; goal ≤ 3",
    },
    {
      scenario: s,
      metric: `fan-out ×${b.children}: ratio ours/bare that the CPU spent allows at best`,
      median: r2(fanFloor / b.fanBare),
      p95: "",
      unit: "×",
      note: `(app + others) × N / ${b.cores} cores; measured ${r2(b.fan / b.fanBare)}× is ${r2(b.fan / fanFloor)}× this floor`,
    },
    {
      scenario: s,
      metric: `fan-out ×${b.children}: app CPU per child a ${b.goal}× ratio leaves room for`,
      median: r2(allowed(b.children, b.fanBare, b.fanOthersCpu)),
      p95: r2(b.fanCpu),
      unit: "ms",
      note: "median column: the room, all cores busy; p95 column: measured",
    },
  ];
}
