/**
 * worker-scale's control: the same shape of work without our code. N processes, each running the bare SDK loop (a)
 * (`openai` streaming against the scripted server, the tools run in process) with as many loops at once as a worker
 * runs activations, share the batch's loops, warmed up first like the workers. Its CPU per step with N processes
 * against one is what this machine charges for N busy processes (fewer cores than processes: preemption, caches
 * shared), which no change of ours can remove; the workers' own ratio is read against it.
 */
import { startChild, type BaselineProcess } from "./baseline-process";
import { median } from "./harness";

export interface ControlOptions {
  /** The worker counts, in the order of the measured batches (alternated over the rounds). */
  order: number[];
  /** Loops of a measured batch, shared by the processes (the workers' threads). */
  loops: number;
  /** Loops each process runs first, not measured. */
  warmup: number;
  /** Loops each process runs at once at most (the workers' activations). */
  parallel: number;
  /** The first message of a loop (the scripted server's rules decide its steps). */
  user: string;
}

/** CPU time per step (ms) of each measured batch, per process count. */
export async function processControl(fakeUrl: string, o: ControlOptions): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  for (const n of o.order) {
    const children: BaselineProcess[] = [];
    try {
      for (let i = 0; i < n; i++) children.push(await startChild(fakeUrl));
      await Promise.all(children.map((c) => c.batch("openai", SYSTEM, o.user, o.warmup, o.parallel)));
      const share = Math.ceil(o.loops / n);
      const runs = await Promise.all(children.map((c) => c.batch("openai", SYSTEM, o.user, share, Math.min(o.parallel, share))));
      const steps = runs.reduce((a, r) => a + r.steps, 0);
      const cpu = runs.reduce((a, r) => a + r.cpuMs, 0);
      out.set(n, [...(out.get(n) ?? []), cpu / steps]);
    } finally {
      await Promise.all(children.map((c) => c.close()));
    }
  }
  return out;
}

/** Median CPU per step of N processes over one process's, round by round (the same round's batches). */
export function controlRatios(cpu: Map<number, number[]>, n: number): { ratios: number[]; median: number } {
  const one = cpu.get(1) ?? [];
  const ratios = (cpu.get(n) ?? []).map((v, i) => v / one[i]!).filter((r) => Number.isFinite(r));
  return { ratios, median: ratios.length ? median(ratios) : NaN };
}

const SYSTEM = "You are the bench looper.";
