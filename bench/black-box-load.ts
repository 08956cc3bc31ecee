/**
 * The load of the black-box bench, driven over REST and SSE only: N threads × K steps posted at once (POST → idle per
 * thread, every wait included), the same alone, a fan-out of N non-blocking children; and the bare `openai` SDK
 * baselines for each on the same scripted server.
 */
import type { BlackBoxApp } from "./black-box-app";
import { openaiLoop, sdkClient } from "./direct-loops";
import type { FakeServer } from "./harness";
import { openSse } from "./sse-client";
import type { Rule } from "../scripts/fake-llm/script-schema";

async function json(url: string, method = "GET", body?: unknown) {
  const res = await fetch(url, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return res.json() as Promise<any>;
}

export const createThread = async (app: BlackBoxApp, agent: string) => (await json(`${app.url}/api/threads`, "POST", { agent_id: agent })).threadId as string;

/** Resolves with the time the thread's stream said it is idle after `arm()` was called (and `extra` said done). */
function watchIdle(app: BlackBoxApp, id: string, extra?: (data: any) => boolean) {
  let armed = false;
  let extraDone = !extra;
  let resolve!: (t: number) => void;
  const idle = new Promise<number>((r) => (resolve = r));
  const sse = openSse(`${app.url}/api/threads/${id}/stream`, (data, t) => {
    if (extra && extra(data)) extraDone = true;
    if (armed && extraDone && data.type === "thread.status" && data.status === "idle") resolve(t);
  });
  return { ready: sse.ready, idle, arm: () => (armed = true), close: () => sse.close() };
}

/** `n` fresh `looper` threads, each subscribed on SSE, then each posted `<key> start` at once. */
export async function threadsAtOnce(app: BlackBoxApp, key: string, n: number): Promise<{ total: number; perThread: number[] }> {
  const ids = await Promise.all(Array.from({ length: n }, () => createThread(app, "looper")));
  const watches = ids.map((id) => watchIdle(app, id));
  await Promise.all(watches.map((w) => w.ready));
  const t0 = performance.now();
  const perThread = await Promise.all(
    ids.map(async (id, i) => {
      const w = watches[i]!;
      w.arm();
      const posted = performance.now();
      await json(`${app.url}/api/threads/${id}/messages`, "POST", { content: `${key} start` });
      return (await w.idle) - posted;
    }),
  );
  const total = performance.now() - t0;
  for (const w of watches) w.close();
  return { total, perThread };
}

/**
 * `n` concurrent bare SDK loops of `steps` calls on the scripted server (the script `loopRules(key, steps)`): the
 * time until the last ended, and each loop's own time (its first request → its answer, every wait included).
 */
export async function bareLoops(fake: FakeServer, key: string, n: number, steps: number): Promise<{ total: number; perLoop: number[] }> {
  const client = sdkClient(fake.url);
  const t0 = performance.now();
  const runs = await Promise.all(
    Array.from({ length: n }, async () => {
      const start = performance.now();
      const run = await openaiLoop(client, "You are the bench looper.", `${key} start`);
      return { ...run, ms: performance.now() - start };
    }),
  );
  const wrong = runs.find((r) => r.steps !== steps);
  if (wrong) throw new Error(`a bare loop ran ${wrong.steps} steps, not ${steps}`);
  return { total: performance.now() - t0, perLoop: runs.map((r) => r.ms) };
}

export function fanOutScript(children: number): Rule[] {
  const spawner = "You are the bench spawner.";
  return [
    { when: { system_contains: spawner, last_role: "user", last_contains: "fan out" }, respond: { tool_calls: Array.from({ length: children }, () => ({ name: "bench_child", arguments: { task: "fan work" } })) } },
    { when: { system_contains: spawner }, respond: { content: "noted" } },
    { when: { last_role: "user", last_contains: "fan work" }, respond: { tool_calls: [{ name: "echo", arguments: { text: "fan#1#" } }] } },
    { when: { last_contains: "echo: fan#1#" }, respond: { tool_calls: [{ name: "echo", arguments: { text: "fan#2#" } }] } },
    { when: { last_contains: "echo: fan#2#" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "child done" } }] } },
  ];
}

/** A `spawner` thread fans out to `children` children: POST → the parent idle after every child reported. */
export async function fanOut(app: BlackBoxApp, children: number): Promise<number> {
  const id = await createThread(app, "spawner");
  let reports = 0;
  const w = watchIdle(app, id, (d) => d.type === "subagent.updated" && (d.change === "completed" || d.change === "failed") && ++reports >= children);
  await w.ready;
  w.arm();
  const t0 = performance.now();
  await json(`${app.url}/api/threads/${id}/messages`, "POST", { content: "fan out now" });
  const done = await w.idle;
  w.close();
  return done - t0;
}

/** One request (the parent's) then `children` concurrent 3-step bare loops. */
export async function fanOutBaseline(fake: FakeServer, children: number): Promise<number> {
  const client = sdkClient(fake.url);
  const t0 = performance.now();
  await client.chat.completions.create({ model: "bench-model", messages: [{ role: "system", content: "You are the bench spawner." }, { role: "user", content: "fan out now" }] });
  await Promise.all(Array.from({ length: children }, () => openaiLoop(client, "You are the bench child.", "fan work")));
  return performance.now() - t0;
}

/**
 * The app's own gauges from `GET /api/metrics` (prom-client's process metrics, prefixed `studio_`): e.g.
 * `nodejs_heap_size_used_bytes`, `nodejs_external_memory_bytes`, `nodejs_eventloop_lag_p99_seconds` (the event-loop
 * delay since the previous read). Empty when the endpoint does not answer.
 */
export async function appMetrics(app: BlackBoxApp): Promise<Record<string, number>> {
  const res = await fetch(`${app.url}/api/metrics`).catch(() => null);
  if (!res?.ok) return {};
  const out: Record<string, number> = {};
  for (const line of (await res.text()).split("\n")) {
    const m = /^studio_(\w+) ([\d.e+-]+)$/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}
