/**
 * Shared pieces of `npm run bench`: the scripted server in its own process, the app (runtime + REST API over real
 * HTTP) in this one, scripts for stateless tool loops, the event bus as a stopwatch, and statistics.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serveFetchHandler } from "@/server/api/node-http";
import { createRestHandler } from "@/server/api/rest/routes";
import { redactDatabaseUrl } from "@/server/db/database-url";
import { loadConfig } from "@/server/env";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { createApp, type RunningApp as App } from "@/server/worker/app";
import { clearRequests, setScript } from "../scripts/fake-llm/fake-llm-client";
import type { Rule } from "../scripts/fake-llm/script-schema";

export const root = path.resolve(import.meta.dirname, "..");
export const benchAgents = path.join(import.meta.dirname, "fixtures/agents");

export interface Options {
  quick: boolean;
}

/** One line of the results table. */
export interface Row {
  scenario: string;
  metric: string;
  median: number | string;
  p95: number | string;
  unit: string;
  note?: string;
}

export interface ScenarioResult {
  rows: Row[];
  /** Extra lines printed under the table (database, counts, how something was measured). */
  notes: string[];
}

// ---------------------------------------------------------------- statistics

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
export const median = (v: number[]) => percentile(v, 50);
export const p95 = (v: number[]) => percentile(v, 95);
export const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
export const round = (n: number, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : NaN);
export const mib = (bytes: number) => round(bytes / 1024 / 1024, 1);

export function row(scenario: string, metric: string, values: number[], unit: string, note?: string): Row {
  return { scenario, metric, median: round(median(values)), p95: round(p95(values)), unit, note };
}

// ---------------------------------------------------------------- the scripted server, in its own process

export interface FakeServer {
  url: string;
  /** The scripted server's process (its CPU time is read from /proc by the black-box bench). */
  pid: number;
  setScript(rules: Rule[]): Promise<void>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One retry on a network error (fetch throws a TypeError): a pooled keep-alive socket the scripted server closed
 * (after 1 s idle) while this busy process had not yet seen it close.
 */
async function retryOnce<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return fn();
  }
}

/**
 * `scripts/fake-llm/main.ts` on a loopback port in a child process (its request log stays out of our heap): `port`,
 * else `BENCH_LLM_PORT`, else a free one.
 */
export async function startFakeServer(port = Number(process.env.BENCH_LLM_PORT ?? 0)): Promise<FakeServer> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/fake-llm/main.ts"), "--port", String(port)], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`fake-llm exited with ${code}: ${out}`)));
  });
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    setScript: (rules) => retryOnce(() => setScript(url, rules)),
    clear: () => retryOnce(() => clearRequests(url)),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * A stateless tool loop of `steps` LLM calls: the first `steps - 1` answers call `echo` with a marker the next rule
 * looks for in the tool result, the last answers text. Any number of threads can run it at once.
 */
export function loopRules(key: string, steps: number, extra: Partial<Rule> = {}): Rule[] {
  const call = (i: number) => ({ tool_calls: [{ name: "echo", arguments: { text: `${key}#${i}#` } }] });
  const rules: Rule[] = [{ ...extra, when: { last_role: "user", last_contains: `${key} start` }, respond: steps > 1 ? call(1) : { content: "done" } }];
  for (let i = 1; i < steps; i++) {
    rules.push({ ...extra, when: { last_contains: `echo: ${key}#${i}#` }, respond: i + 1 < steps ? call(i + 1) : { content: "done" } });
  }
  return rules;
}

// ---------------------------------------------------------------- the app

export interface BenchApp {
  app: App;
  url: string;
  /** e.g. `sqlite (file:/tmp/…/app.db, journal_mode=wal)`. */
  database: string;
  close(): Promise<void>;
}

/**
 * The real app with the bench definitions: runtime, Prisma persistence, event bus and the REST API over HTTP on
 * 127.0.0.1. The database is a fresh SQLite file unless `DATABASE_URL` selects another (e.g. PostgreSQL). `env`
 * adds settings (e.g. `RUNTIME_CONCURRENCY`).
 */
export async function startBenchApp(fakeUrl: string, env: Record<string, string> = {}): Promise<BenchApp> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-"));
  const config = loadConfig(
    {
      NODE_ENV: "production",
      DATA_DIR: path.join(tmp, "data"),
      AGENTS_DIR: benchAgents,
      WATCH_DEFINITIONS: "0",
      SECRETS_KEY: "22".repeat(32),
      OPENAI_BASE_URL: fakeUrl,
      OPENAI_API_KEY: "bench",
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      ...env,
    },
    root,
  );
  const app = await createApp({ config, projectRoot: root });
  const server = await serveFetchHandler(createRestHandler(async () => app));
  let database = `${config.database.kind} (${redactDatabaseUrl(config.database.url)}`;
  if (config.database.kind === "sqlite") {
    const [mode] = await app.prisma.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    database += `, journal_mode=${mode?.journal_mode}`;
  }
  database += ")";
  return {
    app,
    url: server.url,
    database,
    async close() {
      await server.close();
      await app.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** JSON over HTTP; throws on a status of 400 and up. */
export async function api(base: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function createThread(base: string, agent: string): Promise<string> {
  return (await api(base, "POST", "/api/threads", { agent_id: agent })).threadId as string;
}

export async function postMessage(base: string, threadId: string, content: string): Promise<void> {
  await api(base, "POST", `/api/threads/${threadId}/messages`, { content });
}

export interface Timed {
  t: number;
  env: ThreadEventEnvelope;
}

/**
 * The in-process bus as a stopwatch: records every event of the thread with `performance.now()` at publish (after
 * the commit) and resolves `done` at the first `thread.status` idle/terminated that `until` accepts.
 */
export function watchThread(app: App, threadId: string, until: (events: Timed[]) => boolean = () => true) {
  const events: Timed[] = [];
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const off = app.bus.subscribe(threadId, (env) => {
    events.push({ t: performance.now(), env });
    const e = env.event;
    if (e.type === "thread.status" && e.status !== "running" && until(events)) resolve();
  });
  return { events, done: done.finally(off), stop: off };
}

/** Runtime LLM latency (as the runtime measured it) of the recorded `llm.response` events, ms. */
export function llmLatencies(events: Timed[]): number[] {
  return events.flatMap(({ env }) => (env.event.type === "llm.response" && env.event.latencyMs !== undefined ? [env.event.latencyMs] : []));
}

export const countType = (events: Timed[], type: string) => events.filter((e) => e.env.event.type === type).length;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

