/**
 * Black-box scenario of `npm run bench` (and all of `npm run bench:black-box`): throughput as a user sees it. The app
 * runs as `npm start` runs it (its own process group, a fresh SQLite file); this process drives it over REST and
 * watches each thread's SSE stream; the scripted model server runs in a third process and answers at once. Baselines
 * run in the same run against the same server.
 *
 * Per round: N threads × K steps posted at once (until the last is idle; POST → idle per thread at p50/p95/p99 with
 * every wait included) against N concurrent bare `openai` SDK loops (each loop timed too, under the burst and alone: what
 * the same burst does to the bare loops bounds what it can do to ours); the machine's CPU during each load (app,
 * scripted server, client: cpu-meter.ts); the same per-thread time alone; a fan-out of N
 * non-blocking children against one request plus N concurrent bare loops. Then the resident memory of the app's
 * whole process group before, at peak, after and once idle, and its growth per thread created: overall, and between
 * the rounds once idle (a least-squares fit over the idle readings after each round; from the second round on, the
 * slope that stays once the process has grown to its working size), for the resident set and for the JS heap in use (live objects after the idle
 * GC, which the resident set's page-level noise of ±10 MiB does not blur).
 */
import os from "node:os";
import { startBlackBoxApp, totalKiB, type BlackBoxApp } from "./black-box-app";
import { boundRows } from "./black-box-bounds";
import { busyPercent, cpuMeter } from "./cpu-meter";
import { appMetrics, bareLoops, fanOut, fanOutBaseline, fanOutScript, threadsAtOnce } from "./black-box-load";
import { loopRules, median, round, percentile, sleep, type FakeServer, type Options, type Row, type ScenarioResult } from "./harness";

export interface BlackBoxParams {
  threads: number;
  steps: number;
  children: number;
  rounds: number;
  /** Threads timed alone, one after another, per round. */
  alone: number;
  /** Extra environment of the app (e.g. RUNTIME_CONCURRENCY). */
  appEnv?: Record<string, string>;
  /** The app's port (default: a free one). */
  port?: number;
  /** Printed as the bench goes (per round figures). */
  log?: (line: string) => void;
  /** Only the fan-out (and its baseline) per round: no N × K load, no threads alone, no memory figures. */
  fanOutOnly?: boolean;
}

export const blackBoxDefaults = (quick: boolean): BlackBoxParams => ({
  threads: quick ? 40 : 200,
  steps: 3,
  children: quick ? 20 : 100,
  rounds: quick ? 2 : 4,
  alone: quick ? 5 : 20,
});

const mibOf = (kib: number) => round(kib / 1024, 1);

/** The least-squares slope of y over x (NaN with fewer than two distinct x). */
export function fitSlope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx > 0 ? points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / sxx : NaN;
}

/**
 * The group's RSS once idle: after `quietMs` (the server's idle GC runs once it has been quiet 3 s after work, see
 * scripts/idle-gc.ts), then until it stops falling (the allocator returning pages), at most `maxMs` in all.
 */
async function settledRss(app: BlackBoxApp, maxMs: number, quietMs = 5000): Promise<number> {
  const deadline = Date.now() + maxMs;
  await sleep(quietMs);
  let last = totalKiB(app.memory());
  while (Date.now() < deadline) {
    await sleep(1000);
    const now = totalKiB(app.memory());
    if (now >= last - 256) return Math.min(now, last);
    last = now;
  }
  return last;
}

export async function blackBoxRun(fake: FakeServer, p: BlackBoxParams): Promise<ScenarioResult> {
  const log = p.log ?? (() => {});
  const { threads: N, steps: K, children: C } = p;
  const app = await startBlackBoxApp(fake.url, p.appEnv ?? {}, p.port);
  const rows: Record<string, number[]> = { ours: [], bare: [], p50: [], p95: [], p99: [], alone: [], fan: [], fanBare: [], fanCpu: [], fanOthers: [], lagP99: [], lagMax: [], cpu: [] };
  for (const k of ["bareP95", "bareP99", "bareAlone", "busy", "bareBusy", "others", "bareOthers"]) rows[k] = [];
  const notes: string[] = [];
  let created = 0;
  try {
    log(`app: npm start, pid ${app.pid}, ${app.url}; threads ${N} × ${K} steps, fan-out ${C}, ${p.rounds} round(s)`);
    // Warm-up (not counted): first-request compilation, connection pools, the allocator's first growth.
    await fake.setScript(loopRules("warm", K));
    await threadsAtOnce(app, "warm", Math.min(N, 20));
    created += Math.min(N, 20);
    if (p.fanOutOnly) return await fanOutRounds(app, fake, p, rows, log);
    const before = await settledRss(app, 12_000);
    const groupLine = app
      .memory()
      .map((m) => `${m.name} ${mibOf(m.rssKiB)} MiB`)
      .join("; ");
    log(`resting RSS of the process group: ${mibOf(before)} MiB (${groupLine})`);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, totalKiB(app.memory()))), 250);
    const idleAfterRound: { created: number; kib: number }[] = [];
    const heapAfterRound: Record<string, number>[] = [];
    for (let r = 0; r < p.rounds; r++) {
      const key = `r${r}`;
      await fake.setScript(loopRules(key, K));
      const bareMeter = cpuMeter(() => app.cpuMs(), fake.pid);
      const bare = await bareLoops(fake, key, N, K);
      const bareCpu = bareMeter();
      rows.bare!.push(bare.total);
      rows.bareP95!.push(percentile(bare.perLoop, 95));
      rows.bareP99!.push(percentile(bare.perLoop, 99));
      rows.bareBusy!.push(busyPercent(bareCpu));
      rows.bareOthers!.push((bareCpu.modelMs + bareCpu.clientMs) / N);
      await appMetrics(app); // resets the event-loop delay histogram
      const meter = cpuMeter(() => app.cpuMs(), fake.pid);
      const load = await threadsAtOnce(app, key, N);
      const cpu = meter();
      rows.cpu!.push(cpu.appMs / N);
      rows.busy!.push(busyPercent(cpu));
      rows.others!.push((cpu.modelMs + cpu.clientMs) / N);
      const lag = await appMetrics(app);
      if (lag.nodejs_eventloop_lag_p99_seconds !== undefined) {
        rows.lagP99!.push(lag.nodejs_eventloop_lag_p99_seconds * 1000);
        rows.lagMax!.push(lag.nodejs_eventloop_lag_max_seconds! * 1000);
      }
      created += N;
      rows.ours!.push(load.total);
      rows.p50!.push(percentile(load.perThread, 50));
      rows.p95!.push(percentile(load.perThread, 95));
      rows.p99!.push(percentile(load.perThread, 99));
      const alone: number[] = [];
      for (let i = 0; i < p.alone; i++) alone.push((await threadsAtOnce(app, key, 1)).perThread[0]!);
      created += p.alone;
      rows.alone!.push(median(alone));
      const bareAlone: number[] = [];
      for (let i = 0; i < p.alone; i++) bareAlone.push((await bareLoops(fake, key, 1, K)).total);
      rows.bareAlone!.push(median(bareAlone));
      await fanOutRound(app, fake, C, rows);
      created += C + 1;
      await fake.clear();
      const ms = (k: string) => `${Math.round(rows[k]!.at(-1)!)} ms`;
      log(
        `round ${r + 1}: ${N}×${K} ours ${ms("ours")} vs bare ${ms("bare")}; POST→idle p50 ${ms("p50")} p95 ${ms("p95")} p99 ${ms("p99")}; alone ${ms("alone")}; fan-out ${ms("fan")} vs bare ${ms("fanBare")}`,
      );
      idleAfterRound.push({ created, kib: await settledRss(app, 12_000) });
      const heap = await appMetrics(app);
      const mb = (k: string) => (heap[k] === undefined ? "?" : `${round(heap[k] / 1024 / 1024, 1)} MiB`);
      log(
        `  idle RSS after round ${r + 1}: ${mibOf(idleAfterRound.at(-1)!.kib)} MiB (${created} threads created so far); heap used ${mb("nodejs_heap_size_used_bytes")} of ${mb("nodejs_heap_size_total_bytes")}, external ${mb("nodejs_external_memory_bytes")}`,
      );
      heapAfterRound.push(heap);
    }
    clearInterval(sampler);
    const after = totalKiB(app.memory());
    await sleep(10_000);
    const idle = totalKiB(app.memory());
    const slope = fitSlope(idleAfterRound.map((r) => ({ x: r.created, y: r.kib })));
    // Once at working size: the fit from the second round on (the first round grows the allocator's arenas).
    const plateau = p.rounds >= 3 ? fitSlope(idleAfterRound.slice(1).map((r) => ({ x: r.created, y: r.kib }))) : NaN;
    const heapSlope = fitSlope(idleAfterRound.map((r, i) => ({ x: r.created, y: (heapAfterRound[i]!.nodejs_heap_size_used_bytes ?? NaN) / 1024 })));
    const m = (k: string) => round(median(rows[k]!));
    const s = `black-box ${N}×${K}`;
    const out: Row[] = [
      { scenario: s, metric: `ours: ${N} threads × ${K} steps at once, until last idle`, median: m("ours"), p95: round(percentile(rows.ours!, 95)), unit: "ms" },
      { scenario: s, metric: `bare: ${N} concurrent openai loops of ${K} steps`, median: m("bare"), p95: round(percentile(rows.bare!, 95)), unit: "ms" },
      { scenario: s, metric: "ratio ours/bare", median: round(m("ours") / m("bare")), p95: "", unit: "×", note: "goal ≤ 2" },
      { scenario: s, metric: "POST → idle per thread under load, p50", median: m("p50"), p95: "", unit: "ms", note: "every wait included" },
      { scenario: s, metric: "POST → idle per thread under load, p95 / p99", median: m("p95"), p95: m("p99"), unit: "ms", note: "median column: p95; p95 column: p99" },
      { scenario: s, metric: "POST → idle per thread alone, median", median: m("alone"), p95: "", unit: "ms" },
      { scenario: s, metric: "ratio POST → idle p95 under load / alone", median: round(m("p95") / m("alone")), p95: "", unit: "×", note: "goal ≤ 3 (see bounds)" },
      { scenario: s, metric: "bare: one loop under the same load, p95 / p99", median: m("bareP95"), p95: m("bareP99"), unit: "ms", note: "its first request → its answer" },
      { scenario: s, metric: "bare: one loop alone, median", median: m("bareAlone"), p95: "", unit: "ms" },
      { scenario: s, metric: "ratio bare loop p95 under load / alone", median: round(m("bareP95") / m("bareAlone")), p95: "", unit: "×", note: "what the same burst does to the bare loops" },
      { scenario: s, metric: "machine CPU busy during the load, ours / bare", median: m("busy"), p95: m("bareBusy"), unit: "%", note: "app + scripted server + client, of cores × wall" },
      { scenario: s, metric: "CPU of scripted server + client per thread, ours / bare", median: m("others"), p95: m("bareOthers"), unit: "ms", note: "what the app's share must fit beside" },
      { scenario: s, metric: "CPU time of the app's processes per thread under load", median: m("cpu"), p95: "", unit: "ms", note: `user + system, /proc; ${K} steps, its POST and SSE stream` },
      { scenario: s, metric: "event-loop delay during the load, p99 / max", median: m("lagP99"), p95: m("lagMax"), unit: "ms", note: "the app's main thread (prom-client)" },
      ...fanOutRows(C, rows),
      ...boundRows({
        threads: N,
        children: C,
        cores: os.availableParallelism(),
        ours: median(rows.ours!),
        bare: median(rows.bare!),
        alone: median(rows.alone!),
        appCpu: median(rows.cpu!),
        othersCpu: median(rows.others!),
        fan: median(rows.fan!),
        fanBare: median(rows.fanBare!),
        fanCpu: median(rows.fanCpu!),
        fanOthersCpu: median(rows.fanOthers!),
        goal: 2,
      }),
      { scenario: "black-box memory", metric: "RSS of the app's process group at rest / peak", median: mibOf(before), p95: mibOf(peak), unit: "MiB", note: "median column: at rest; p95 column: peak" },
      { scenario: "black-box memory", metric: "RSS after the load / 10 s later", median: mibOf(after), p95: mibOf(idle), unit: "MiB", note: "median column: after; p95 column: idle" },
      { scenario: "black-box memory", metric: `growth per thread created, overall (${created})`, median: round((idle - before) / created), p95: "", unit: "KiB", note: "includes the growth to working size" },
      { scenario: "black-box memory", metric: `growth per thread created, round 1 → ${p.rounds} idle`, median: round(slope), p95: "", unit: "KiB", note: "RSS, fit over the rounds" },
      ...(p.rounds >= 3
        ? [{ scenario: "black-box memory", metric: `growth per thread created, round 2 → ${p.rounds} idle`, median: round(plateau), p95: "" as const, unit: "KiB", note: "goal < 5; once at working size" }]
        : []),
      { scenario: "black-box memory", metric: `JS heap growth per thread created, round 1 → ${p.rounds} idle`, median: round(heapSlope), p95: "", unit: "KiB", note: "heap in use after the idle GC" },
    ];
    notes.push(
      "black-box bounds: a load cannot end before the CPU it needs (the app's, the scripted server's and the client's, per thread as measured) is spent over every core, which gives each ratio a floor (other work on the machine is not counted, so under outside load the floor reads low); a thread at the p95 is idle only once 95% of the threads are, which no client of the same model server reaches sooner than 95% of the bare loops' whole burst (bench/black-box-bounds.ts).",
      `black-box: the app under \`npm start\` (pid ${app.pid}, process group ${groupLine}), ${p.rounds} round(s) of ${N} threads × ${K} steps, ${p.alone} threads alone and a fan-out of ${C}; ${created} threads created in all; app env ${JSON.stringify(p.appEnv ?? {})}.`,
      `black-box idle RSS after each round (MiB, threads created so far): ${idleAfterRound.map((x) => `${mibOf(x.kib)} (${x.created})`).join(", ")}; JS heap used then (MiB): ${heapAfterRound.map((h) => round((h.nodejs_heap_size_used_bytes ?? NaN) / 1048576, 1)).join(", ")}.`,
    );
    return { rows: out, notes };
  } finally {
    await app.close();
  }
}

/** One fan-out of `children` and its baseline; the app's CPU time per child (user + system, its whole process group). */
async function fanOutRound(app: BlackBoxApp, fake: FakeServer, children: number, rows: Record<string, number[]>): Promise<void> {
  await fake.setScript(fanOutScript(children));
  rows.fanBare!.push(await fanOutBaseline(fake, children));
  const meter = cpuMeter(() => app.cpuMs(), fake.pid);
  rows.fan!.push(await fanOut(app, children));
  const cpu = meter();
  rows.fanCpu!.push(cpu.appMs / children);
  rows.fanOthers!.push((cpu.modelMs + cpu.clientMs) / children);
}

function fanOutRows(C: number, rows: Record<string, number[]>): Row[] {
  const m = (k: string) => round(median(rows[k]!));
  const s = `black-box fan-out ×${C}`;
  return [
    { scenario: s, metric: "ours: POST → parent idle after all reports", median: m("fan"), p95: round(percentile(rows.fan!, 95)), unit: "ms" },
    { scenario: s, metric: `bare: one request + ${C} concurrent 3-step loops`, median: m("fanBare"), p95: round(percentile(rows.fanBare!, 95)), unit: "ms" },
    { scenario: s, metric: "ratio ours/bare", median: round(m("fan") / m("fanBare")), p95: "", unit: "×", note: "goal ≤ 2" },
    { scenario: s, metric: "CPU time of the app's processes per child", median: m("fanCpu"), p95: round(percentile(rows.fanCpu!, 95)), unit: "ms", note: "user + system, /proc" },
  ];
}

/** `fanOutOnly`: the fan-out and its baseline, `rounds` times, after the warm-up. */
async function fanOutRounds(app: BlackBoxApp, fake: FakeServer, p: BlackBoxParams, rows: Record<string, number[]>, log: (line: string) => void): Promise<ScenarioResult> {
  for (let r = 0; r < p.rounds; r++) {
    await fanOutRound(app, fake, p.children, rows);
    await fake.clear();
    log(`round ${r + 1}: fan-out ${Math.round(rows.fan!.at(-1)!)} ms vs bare ${Math.round(rows.fanBare!.at(-1)!)} ms; app CPU ${round(rows.fanCpu!.at(-1)!)} ms per child`);
  }
  return { rows: fanOutRows(p.children, rows), notes: [`black-box fan-out only: ${p.rounds} round(s) of ${p.children} children; app env ${JSON.stringify(p.appEnv ?? {})}.`] };
}

/** Scenario 8 of `npm run bench` (the app on BENCH_BLACKBOX_PORT when set). */
export const blackBox = (fake: FakeServer, opts: Options): Promise<ScenarioResult> =>
  blackBoxRun(fake, {
    ...blackBoxDefaults(opts.quick),
    port: process.env.BENCH_BLACKBOX_PORT ? Number(process.env.BENCH_BLACKBOX_PORT) : undefined,
    log: (line) => console.log(`  ${line}`),
  });
