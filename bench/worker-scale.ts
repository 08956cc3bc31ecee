/**
 * Scenario worker-scale: 200 threads posted at once to an API-only app process (RUNTIME_WORKERS=0) on PostgreSQL,
 * run by 1, 2 and 4 worker processes (`scripts/worker.ts`) sharing the pg-boss queue. Each thread is a tool loop of
 * three LLM steps against the scripted server. Prints the throughput of each worker count (threads and steps per
 * second, from the first post until the last thread's final answer is stored) and the CPU time the workers spent
 * per step (on a machine that is short of cores, more workers cannot add throughput).
 *
 * Needs a PostgreSQL server whose role may create databases: BENCH_POSTGRES_URL (or DATABASE_URL when it is a
 * postgres:// URL). Each worker count gets a fresh database named BENCH_DATABASE_PREFIX (default studio_bench_)…,
 * dropped afterwards.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { databaseTarget, postgresUrlOrUndefined, redactDatabaseUrl } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { loadConfig } from "@/server/env";
import { createApp } from "@/server/worker/app";
import { benchAgents, loopRules, root, round, row, sleep, type FakeServer, type Options, type Row, type ScenarioResult } from "./harness";

const STEPS = 3;
/** Threads each round runs per worker before the measured batch (the same 3-step loop). */
const WARMUP_THREADS = 100;

/** The PostgreSQL server the bench may create databases on: BENCH_POSTGRES_URL, or a postgres:// DATABASE_URL. */
export function adminUrl(): string | null {
  return postgresUrlOrUndefined(process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL) ?? null;
}

/** One statement on the PostgreSQL server (CREATE / DROP DATABASE), on a connection of its own. */
export async function admin(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", path.join(root, "bench/worker-sql-hook.ts"), path.join(root, "scripts/worker.ts")], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes("[worker]")) resolve(child);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const logs = process.env.BENCH_WORKER_LOGS;
    if (logs) {
      child.stdout!.on("data", (d: Buffer) => fs.appendFileSync(logs, d));
      child.stderr!.on("data", (d: Buffer) => fs.appendFileSync(logs, d));
    }
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Context switches of a process so far (voluntary: it waited; involuntary: the kernel preempted it), from /proc. */
export function contextSwitches(pid: number | undefined): { voluntary: number; involuntary: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { voluntary: field("voluntary_ctxt_switches"), involuntary: field("nonvoluntary_ctxt_switches") };
  } catch {
    return { voluntary: NaN, involuntary: NaN };
  }
}

export async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/** One round: a fresh database, the app without workers, `workers` worker processes, `threads` threads at once. */
export async function round1(
  fake: FakeServer,
  server: string,
  workers: number,
  threads: number,
): Promise<{ seconds: number; database: string; workerCpu: number; switches: { voluntary: number; involuntary: number }; appCpu: number; statements: Map<string, number> }> {
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
        await Promise.all(ids.map((id) => app.runtime.postMessage(id, { content: "ws start" })));
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
      const cpu0 = children.map((c) => cpuSeconds(c.pid));
      const cs0 = children.map((c) => contextSwitches(c.pid));
      const app0 = process.cpuUsage();
      const seconds = await run(ids);
      const workerCpu = children.reduce((acc, c, i) => acc + cpuSeconds(c.pid) - cpu0[i]!, 0);
      const switches = children.reduce(
        (acc, c, i) => {
          const now = contextSwitches(c.pid);
          return { voluntary: acc.voluntary + now.voluntary - cs0[i]!.voluntary, involuntary: acc.involuntary + now.involuntary - cs0[i]!.involuntary };
        },
        { voluntary: 0, involuntary: 0 },
      );
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
      return { seconds, database: redactDatabaseUrl(databaseUrl), workerCpu, switches, appCpu: (a.user + a.system) / 1e6, statements };
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
    const { seconds, database, workerCpu, appCpu, statements } = await round1(fake, server, workers, threads);
    const scenario = `worker-scale ×${threads}, ${workers} worker${workers > 1 ? "s" : ""}`;
    rows.push(row(scenario, "throughput", [round(threads / seconds, 1)], "threads/s", `${round(seconds, 2)} s for all`));
    rows.push(row(scenario, "step throughput", [round((threads * STEPS) / seconds, 1)], "steps/s"));
    rows.push(
      row(scenario, "worker CPU per step", [round((workerCpu * 1000) / (threads * STEPS), 1)], "ms", `all workers: ${round(workerCpu, 1)} s CPU; app: ${round(appCpu, 1)} s`),
    );
    const steps = threads * STEPS;
    const total = [...statements.values()].reduce((a, b) => a + b, 0);
    const top = [...statements].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([k, n]) => `${k} ${round(n / steps, 2)}`);
    rows.push(row(scenario, "worker SQL statements per step", [round(total / steps, 1)], "stmts", "all workers, pg-boss included"));
    notes.push(`worker-scale, ${workers} worker process(es): ${threads} threads × ${STEPS} steps in ${round(seconds, 2)} s on ${database}; load average before: ${load}`);
    notes.push(`worker-scale, ${workers} worker process(es): statements per step, all workers: ${round(total / steps, 1)}; ${top.join(", ")}`);
  }
  notes.push(
    `worker-scale: one run per worker count; an API-only app process posts every message, worker processes (64 activations each at most) run the threads from the shared pg-boss queue; ${WARMUP_THREADS} threads per worker run through the same workers first (warm-up, not measured); statements counted per key, the 20 most frequent shown`,
  );
  return { rows, notes };
}
