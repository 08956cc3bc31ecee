/**
 * Scenario worker-scale: 200 threads posted at once to an API-only app process (RUNTIME_WORKERS=0) on PostgreSQL,
 * run by 1, 2 and 4 worker processes (`scripts/worker.ts`) sharing the pg-boss queue. Each thread is a tool loop of
 * three LLM steps against the scripted server. Prints the throughput of each worker count (threads and steps per
 * second, from the first post until the last thread's final answer is stored) and the CPU time the workers spent
 * per step (on a machine that is short of cores, more workers cannot add throughput). Apart from the per-step figure,
 * each worker's CPU per second once the run is over (idle: what a worker costs whatever its work, multiplied by the
 * workers over the run) and the workers' context switches per step.
 *
 * Needs a PostgreSQL server whose role may create databases: BENCH_POSTGRES_URL (or DATABASE_URL when it is a
 * postgres:// URL). Each worker count gets a fresh database named BENCH_DATABASE_PREFIX (default studio_bench_)…,
 * dropped afterwards.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseTarget, postgresUrlOrUndefined, redactDatabaseUrl } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { loadConfig } from "@/server/env";
import { createApp } from "@/server/worker/app";
import { benchAgents, loopRules, root, round, row, sleep, type FakeServer, type Options, type Row, type ScenarioResult } from "./harness";
import { admin, startWorker, stopWorker, usageMeter, type Switches } from "./worker-processes";

export { admin } from "./worker-processes";

const STEPS = 3;
/** Threads each round runs per worker before the measured batch (the same 3-step loop). */
const WARMUP_THREADS = 100;

/** The PostgreSQL server the bench may create databases on: BENCH_POSTGRES_URL, or a postgres:// DATABASE_URL. */
export function adminUrl(): string | null {
  return postgresUrlOrUndefined(process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL) ?? null;
}

export interface RoundResult {
  seconds: number;
  database: string;
  /** CPU seconds of all workers over the measured run, and their main threads' context switches. */
  workerCpu: number;
  switches: Switches;
  /** Each worker's CPU per second once the run is over (ms/s). */
  idleCpu: number[];
  appCpu: number;
  /** Statements by key, and the hook's diagnostics (keys starting with `~`). */
  statements: Map<string, number>;
}

/** How long each worker's idle CPU is read after the run (ms). */
const IDLE_MS = 5000;

/**
 * One round: a fresh database, the app without workers, `workers` worker processes, `threads` threads posted at once
 * (or one every `paceMs`: work arriving steadily rather than in one burst).
 */
export async function round1(fake: FakeServer, server: string, workers: number, threads: number, paceMs = 0): Promise<RoundResult> {
  const name = `${process.env.BENCH_DATABASE_PREFIX ?? "studio_bench_"}workers_${workers}_${process.pid}`.toLowerCase();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(server, `CREATE DATABASE "${name}"`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-workers-"));
  const countsFile = path.join(tmp, "sql-counts");
  const env = {
    BENCH_SQL_COUNTS: countsFile,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(tmp, "data"),
    AGENTS_DIR: benchAgents,
    WATCH_DEFINITIONS: "0",
    SECRETS_KEY: "22".repeat(32),
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "bench",
  };
  const children: ChildProcess[] = [];
  try {
    await migrateDatabase(databaseTarget(databaseUrl), { projectRoot: root });
    const app = await createApp({ config: loadConfig({ ...env, RUNTIME_WORKERS: "0" }, root), projectRoot: root, skipMigrations: true });
    try {
      children.push(...(await Promise.all(Array.from({ length: workers }, () => startWorker(env)))));
      const batch = async (n: number) => {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) ids.push((await app.runtime.createThread({ agentId: "looper" })).id);
        return ids;
      };
      const run = async (ids: string[]) => {
        const t0 = performance.now();
        const post = (id: string) => app.runtime.postMessage(id, { content: "ws start" });
        if (paceMs > 0) {
          const posted: Promise<unknown>[] = [];
          for (const id of ids) {
            posted.push(post(id));
            await sleep(paceMs);
          }
          await Promise.all(posted);
        } else await Promise.all(ids.map(post));
        // Done when every thread stored its final answer (polled in the database; the workers are other processes).
        for (;;) {
          const done = await app.prisma.message.count({ where: { threadId: { in: ids }, role: "assistant", content: "done" } });
          if (done >= ids.length) break;
          if (performance.now() - t0 > 600_000) throw new Error(`only ${done} of ${ids.length} threads finished in 10 minutes`);
          await sleep(50);
        }
        return (performance.now() - t0) / 1000;
      };
      // Warm-up: each worker runs threads before the measured batch (a fresh process pays its JIT, its query
      // compilation and its connections once: with more workers, a cold run counts that cost once per worker). The
      // warm-up grows with the workers, so that each runs about as many threads before the measure whatever their
      // number (with a fixed one, four workers each began the measure having run a quarter of what one had).
      await run(await batch(WARMUP_THREADS * workers));
      const ids = await batch(threads);
      for (const c of children) c.kill("SIGUSR2");
      await sleep(200);
      const meter = usageMeter(children.map((c) => c.pid));
      const app0 = process.cpuUsage();
      const seconds = await run(ids);
      const { cpu: workerCpu, switches } = meter();
      const a = process.cpuUsage(app0);
      for (const c of children) c.kill("SIGUSR1");
      await sleep(300);
      const statements = new Map<string, number>();
      for (const c of children) {
        const file = `${countsFile}.${c.pid}`;
        if (!fs.existsSync(file)) continue;
        for (const [k, n] of JSON.parse(fs.readFileSync(file, "utf8")) as [string, number][]) statements.set(k, (statements.get(k) ?? 0) + n);
        fs.rmSync(file, { force: true });
      }
      // Idle: the workers with nothing to run (the last completions settle first).
      await sleep(1000);
      const idle = usageMeter(children.map((c) => c.pid));
      await sleep(IDLE_MS);
      const idleCpu = idle().perProcessCpu.map((s) => (s * 1000) / (IDLE_MS / 1000));
      return { seconds, database: redactDatabaseUrl(databaseUrl), workerCpu, switches, idleCpu, appCpu: (a.user + a.system) / 1e6, statements };
    } finally {
      await Promise.all(children.map(stopWorker));
      await app.close();
    }
  } finally {
    await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export async function workerScale(fake: FakeServer, opts: Options): Promise<ScenarioResult> {
  const server = adminUrl();
  if (!server) {
    return { rows: [], notes: ["worker-scale skipped: set BENCH_POSTGRES_URL (or DATABASE_URL) to a postgres:// server whose role may create databases"] };
  }
  const threads = 200;
  const counts = opts.quick ? [1, 2] : [1, 2, 4];
  await fake.setScript(loopRules("ws", STEPS));
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const workers of counts) {
    const load = os.loadavg()[0]!.toFixed(2);
    const { seconds, database, workerCpu, switches, idleCpu, appCpu, statements } = await round1(fake, server, workers, threads);
    const scenario = `worker-scale ×${threads}, ${workers} worker${workers > 1 ? "s" : ""}`;
    rows.push(row(scenario, "throughput", [round(threads / seconds, 1)], "threads/s", `${round(seconds, 2)} s for all`));
    rows.push(row(scenario, "step throughput", [round((threads * STEPS) / seconds, 1)], "steps/s"));
    rows.push(
      row(scenario, "worker CPU per step", [round((workerCpu * 1000) / (threads * STEPS), 1)], "ms", `all workers: ${round(workerCpu, 1)} s CPU; app: ${round(appCpu, 1)} s`),
    );
    const steps = threads * STEPS;
    const idleSum = idleCpu.reduce((a, b) => a + b, 0);
    rows.push(row(scenario, "worker CPU per second, idle", idleCpu, "ms/s", `each worker, ${IDLE_MS / 1000} s after the run; over the run all workers: ${round((idleSum * seconds) / steps, 2)} ms per step`));
    rows.push(
      row(scenario, "worker context switches per step", [round(switches.voluntary / steps, 2)], "switches", `voluntary (wake-ups); involuntary (preempted): ${round(switches.involuntary / steps, 2)}`),
    );
    const stmts = [...statements].filter(([k]) => !k.startsWith("~"));
    const diagnostics = [...statements].filter(([k]) => k.startsWith("~")).map(([k, n]) => `${k.slice(1)} ${round(n / steps, 3)}`);
    const total = stmts.reduce((a, [, n]) => a + n, 0);
    const top = stmts.sort((a, b) => b[1] - a[1]).slice(0, 20).map(([k, n]) => `${k} ${round(n / steps, 2)}`);
    rows.push(row(scenario, "worker SQL statements per step", [round(total / steps, 1)], "stmts", "all workers, pg-boss included"));
    notes.push(`worker-scale, ${workers} worker process(es): ${threads} threads × ${STEPS} steps in ${round(seconds, 2)} s on ${database}; load average before: ${load}`);
    notes.push(`worker-scale, ${workers} worker process(es): statements per step, all workers: ${round(total / steps, 1)}; ${top.join(", ")}`);
    notes.push(`worker-scale, ${workers} worker process(es): per step, all workers: ${diagnostics.sort().join(", ")}`);
  }
  notes.push(
    `worker-scale: one run per worker count; an API-only app process posts every message, worker processes (64 activations each at most) run the threads from the shared pg-boss queue; ${WARMUP_THREADS} threads per worker run through the same workers first (warm-up, not measured); statements counted per key, the 20 most frequent shown; "notified" counts the NOTIFYs each worker received, "fetch empty" the queue fetches that found no job`,
  );
  return { rows, notes };
}
