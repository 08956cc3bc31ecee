/**
 * Scenario worker-scale: 200 threads posted at once to an API-only app process (RUNTIME_WORKERS=0) on PostgreSQL,
 * run by 1, 2 and 4 worker processes (`scripts/worker.ts`) sharing the pg-boss queue. Each thread is a tool loop of
 * three LLM steps against the scripted server. The measured batches alternate the worker counts over several rounds
 * (1, 2, 4, 4, 2, 1, 1, 2, 4: BENCH_WORKER_ROUNDS, default 3; 1 with --quick), each on a fresh database with fresh,
 * warmed-up workers (sets of every count kept up at once would need more connections than PostgreSQL's default 100):
 * each figure is the median over the rounds, so a load that changes during the scenario moves every count alike. Prints the throughput of each worker
 * count (threads and steps per second, from the first post until the last thread's final answer is stored) and the
 * CPU time the workers spent per step within each batch (on a machine that is short of cores, more workers cannot
 * add throughput). Apart from the per-step figure, each worker's CPU per second after its first batch (idle: what
 * a worker costs whatever its work, multiplied by the workers over the run) and the workers' context switches per
 * step. BENCH_WORKER_PACE_MS: post one thread every so many ms instead of all at once (work arriving steadily).
 * The control (process-control.ts) runs the same batches in the bare SDK loop, in as many processes, alternated the
 * same way: what N busy processes cost this machine per step, against which the workers' ratio is read.
 *
 * Needs a PostgreSQL server whose role may create databases: BENCH_POSTGRES_URL (or DATABASE_URL when it is a
 * postgres:// URL). Each worker count gets a fresh database named BENCH_DATABASE_PREFIX (default studio_bench_)…,
 * dropped afterwards.
 */
import os from "node:os";
import { postgresUrlOrUndefined } from "@/server/db/database-url";
import { loopRules, median, round, row, type FakeServer, type Options, type Row, type ScenarioResult } from "./harness";
import { controlRatios, processControl } from "./process-control";
import { startWorkerSet, type BatchResult } from "./worker-set";

export { admin } from "./worker-processes";

const STEPS = 3;
/** Threads each set runs per worker before its first measured batch (the same 3-step loop). */
const WARMUP_THREADS = 100;
/** Activations a worker runs at once at most (the runtime's default); the control runs as many loops at once. */
const WORKER_ACTIVATIONS = 64;
/** How long each worker's idle CPU is read after the rounds (ms). */
const IDLE_MS = 5000;

/** The PostgreSQL server the bench may create databases on: BENCH_POSTGRES_URL, or a postgres:// DATABASE_URL. */
export function adminUrl(): string | null {
  return postgresUrlOrUndefined(process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL) ?? null;
}

/** The order of the measured batches: the counts forward, then backward, and so on (1 2 4 4 2 1 1 2 4 …). */
export function roundOrder(counts: number[], rounds: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) out.push(...(r % 2 === 0 ? counts : [...counts].reverse()));
  return out;
}

export async function workerScale(fake: FakeServer, opts: Options): Promise<ScenarioResult> {
  const server = adminUrl();
  if (!server) {
    return { rows: [], notes: ["worker-scale skipped: set BENCH_POSTGRES_URL (or DATABASE_URL) to a postgres:// server whose role may create databases"] };
  }
  const threads = 200;
  const steps = threads * STEPS;
  const counts = opts.quick ? [1, 2] : [1, 2, 4];
  const rounds = opts.quick ? 1 : Math.max(1, Number(process.env.BENCH_WORKER_ROUNDS ?? 3) || 3);
  const paceMs = Number(process.env.BENCH_WORKER_PACE_MS ?? 0) || 0;
  await fake.setScript(loopRules("ws", STEPS));
  const results = new Map<number, (BatchResult & { load: number; database: string })[]>(counts.map((n) => [n, []]));
  const idle = new Map<number, number[]>();
  for (const workers of roundOrder(counts, rounds)) {
    const load = os.loadavg()[0]!;
    const set = await startWorkerSet(fake, server, workers, WARMUP_THREADS);
    try {
      results.get(workers)!.push({ ...(await set.measure(threads, paceMs)), load, database: set.database });
      // Idle, once per count: the workers with nothing to run (the last completions settle first).
      if (!idle.has(workers)) {
        await new Promise((r) => setTimeout(r, 1000));
        idle.set(workers, await set.idle(IDLE_MS));
      }
    } finally {
      await set.close();
    }
  }
  // The control: the same batches in the bare SDK loop, in as many processes (see process-control.ts).
  const control = await processControl(fake.url, { order: roundOrder(counts, rounds), loops: threads, warmup: WARMUP_THREADS, parallel: WORKER_ACTIVATIONS, user: "ws start" });
  const rows: Row[] = [];
  const notes: string[] = [];
  const list = (v: number[], digits = 1) => v.map((x) => round(x, digits)).join(", ");
  const cpuPerStep = (r: BatchResult) => (r.workerCpu * 1000) / steps;
  for (const workers of counts) {
    const rs = results.get(workers)!;
    const scenario = `worker-scale ×${threads}, ${workers} worker${workers > 1 ? "s" : ""}`;
    const seconds = rs.map((r) => r.seconds);
    const cpu = rs.map(cpuPerStep);
    const sum = <K extends "voluntary" | "involuntary">(k: K) => rs.reduce((a, r) => a + r.switches[k], 0) / (steps * rs.length);
    rows.push(row(scenario, "throughput", seconds.map((s) => threads / s), "threads/s", `${round(median(seconds), 2)} s for all (median of ${rs.length}: ${list(seconds, 2)} s)`));
    rows.push(row(scenario, "step throughput", seconds.map((s) => steps / s), "steps/s"));
    rows.push(
      row(scenario, "worker CPU per step", cpu, "ms", `median of ${rs.length} rounds: ${list(cpu)} ms; all workers: ${round(median(rs.map((r) => r.workerCpu)), 1)} s CPU; app: ${round(median(rs.map((r) => r.appCpu)), 1)} s`),
    );
    const idleCpu = idle.get(workers) ?? [];
    const idleSum = idleCpu.reduce((a, b) => a + b, 0);
    rows.push(row(scenario, "worker CPU per second, idle", idleCpu, "ms/s", `each worker, ${IDLE_MS / 1000} s after its first batch; over a batch all workers: ${round((idleSum * median(seconds)) / steps, 2)} ms per step`));
    rows.push(row(scenario, "worker context switches per step", [round(sum("voluntary"), 2)], "switches", `voluntary (wake-ups); involuntary (preempted): ${round(sum("involuntary"), 2)}`));
    const statements = new Map<string, number>();
    for (const r of rs) for (const [k, n] of r.statements) statements.set(k, (statements.get(k) ?? 0) + n / rs.length);
    const stmts = [...statements].filter(([k]) => !k.startsWith("~"));
    const diagnostics = [...statements].filter(([k]) => k.startsWith("~")).map(([k, n]) => `${k.slice(1)} ${round(n / steps, 3)}`);
    const total = stmts.reduce((a, [, n]) => a + n, 0);
    const top = stmts.sort((a, b) => b[1] - a[1]).slice(0, 20).map(([k, n]) => `${k} ${round(n / steps, 2)}`);
    rows.push(row(scenario, "worker SQL statements per step", [round(total / steps, 1)], "stmts", "all workers, pg-boss included"));
    notes.push(
      `worker-scale, ${workers} worker process(es): ${threads} threads × ${STEPS} steps, ${rs.length} batches in ${list(seconds, 2)} s on ${rs[0]?.database}; load average before each: ${list(rs.map((r) => r.load), 2)}`,
    );
    notes.push(`worker-scale, ${workers} worker process(es): statements per step, all workers: ${round(total / steps, 1)}; ${top.join(", ")}`);
    notes.push(`worker-scale, ${workers} worker process(es): per step, all workers: ${diagnostics.sort().join(", ")}`);
  }
  for (const n of counts) {
    const cpu = control.get(n) ?? [];
    rows.push(row(`worker-scale control ×${threads}, ${n} process${n > 1 ? "es" : ""}`, "bare SDK loop (a): CPU per step", cpu, "ms", `median of ${cpu.length} rounds: ${list(cpu, 2)} ms`));
  }
  // The same ratio within each round (the counts measured minutes apart at most): its spread shows the noise.
  const one = results.get(1)!.map(cpuPerStep);
  for (const n of counts.filter((c) => c > 1)) {
    const ratios = results.get(n)!.map((r, i) => cpuPerStep(r) / one[i]!);
    notes.push(`worker-scale: worker CPU per step, ${n} workers / 1 worker, round by round: ${list(ratios, 2)} (median ${round(median(ratios), 2)})`);
    const c = controlRatios(control, n);
    notes.push(`worker-scale control: bare SDK loop CPU per step, ${n} processes / 1 process, round by round: ${list(c.ratios, 2)} (median ${round(c.median, 2)})`);
  }
  notes.push(
    `worker-scale: ${rounds} round(s) of measured batches alternating the worker counts (${roundOrder(counts, Math.min(rounds, 3)).join(" ")} …), each batch on a fresh database with fresh worker processes warmed up as below, each figure the median over the rounds; an API-only app process posts every message, worker processes (64 activations each at most) run the threads from the shared pg-boss queue; ${WARMUP_THREADS} threads per worker run through each set first (warm-up, not measured)${paceMs > 0 ? `; threads posted one every ${paceMs} ms` : ""}; statements counted per key and averaged over the rounds, the 20 most frequent shown; "notified" counts the NOTIFYs each worker received, "fetch empty" the queue fetches that found no job`,
  );
  return { rows, notes };
}
