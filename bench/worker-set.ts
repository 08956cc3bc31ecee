/**
 * A set of worker processes for bench/worker-scale.ts: a fresh database, an API-only app in this process
 * (RUNTIME_WORKERS=0) and `workers` worker processes (`scripts/worker.ts`), warmed up, then measured. The workers' CPU
 * and context switches are read from /proc over the measured batch only.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseTarget, redactDatabaseUrl } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { loadConfig } from "@/server/env";
import { createApp, type RunningApp } from "@/server/worker/app";
import { benchAgents, root, sleep, type FakeServer } from "./harness";
import { admin, startWorker, stopWorker, usageMeter, type Switches } from "./worker-processes";

export interface BatchResult {
  seconds: number;
  /** CPU seconds of all workers over the measured batch, and their main threads' context switches. */
  workerCpu: number;
  switches: Switches;
  /** CPU seconds of this (the bench's) process over the batch: the app posting and polling. */
  appCpu: number;
  /** Statements by key, and the hook's diagnostics (keys starting with `~`). */
  statements: Map<string, number>;
}

export interface WorkerSet {
  workers: number;
  database: string;
  /** Run `threads` threads (created first, then posted at once or one every `paceMs`), measured. */
  measure(threads: number, paceMs?: number): Promise<BatchResult>;
  /** Each worker's CPU over `ms` of idleness (ms of CPU per second). */
  idle(ms: number): Promise<number[]>;
  close(): Promise<void>;
}

/** Start a set: a fresh database, the app without workers, `workers` worker processes, `warmupThreads` run first. */
export async function startWorkerSet(fake: FakeServer, server: string, workers: number, warmupThreads: number): Promise<WorkerSet> {
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
  let app: RunningApp | null = null;
  const close = async () => {
    await Promise.all(children.map(stopWorker));
    await app?.close();
    await admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await migrateDatabase(databaseTarget(databaseUrl), { projectRoot: root });
    app = await createApp({ config: loadConfig({ ...env, RUNTIME_WORKERS: "0" }, root), projectRoot: root, skipMigrations: true });
    children.push(...(await Promise.all(Array.from({ length: workers }, () => startWorker(env)))));
  } catch (err) {
    await close();
    throw err;
  }
  const a = app;
  const pids = children.map((c) => c.pid);
  const batch = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await a.runtime.createThread({ agentId: "looper" })).id);
    return ids;
  };
  const run = async (ids: string[], paceMs: number) => {
    const t0 = performance.now();
    const post = (id: string) => a.runtime.postMessage(id, { content: "ws start" });
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
      const done = await a.prisma.message.count({ where: { threadId: { in: ids }, role: "assistant", content: "done" } });
      if (done >= ids.length) break;
      if (performance.now() - t0 > 600_000) throw new Error(`only ${done} of ${ids.length} threads finished in 10 minutes`);
      await sleep(50);
    }
    return (performance.now() - t0) / 1000;
  };
  // Warm-up: each worker runs threads before the first measured batch (a fresh process pays its JIT, its query
  // compilation and its connections once: with more workers, a cold run counts that cost once per worker). It grows
  // with the workers, so that each runs about as many threads before the measure whatever their number.
  try {
    await run(await batch(warmupThreads * workers), 0);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    workers,
    database: redactDatabaseUrl(databaseUrl),
    async measure(threads, paceMs = 0) {
      const ids = await batch(threads);
      for (const c of children) c.kill("SIGUSR2");
      await sleep(200);
      const meter = usageMeter(pids);
      const app0 = process.cpuUsage();
      const seconds = await run(ids, paceMs);
      const { cpu: workerCpu, switches } = meter();
      const u = process.cpuUsage(app0);
      for (const c of children) c.kill("SIGUSR1");
      await sleep(300);
      const statements = new Map<string, number>();
      for (const c of children) {
        const file = `${countsFile}.${c.pid}`;
        if (!fs.existsSync(file)) continue;
        for (const [k, n] of JSON.parse(fs.readFileSync(file, "utf8")) as [string, number][]) statements.set(k, (statements.get(k) ?? 0) + n);
        fs.rmSync(file, { force: true });
      }
      return { seconds, workerCpu, switches, appCpu: (u.user + u.system) / 1e6, statements };
    },
    async idle(ms) {
      const meter = usageMeter(pids);
      await sleep(ms);
      return meter().perProcessCpu.map((s) => (s * 1000) / (ms / 1000));
    },
    close,
  };
}
