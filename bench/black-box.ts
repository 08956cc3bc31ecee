/**
 * `npm run bench:black-box`: throughput as a user sees it. The app runs as `npm start` runs it (its own process group,
 * a fresh SQLite file); this process drives it over REST and watches each thread's SSE stream; the scripted model
 * server runs in a third process and answers at once. Baselines run in the same run against the same server.
 *
 *   npm run bench:black-box [-- --threads 200 --steps 3 --children 100 --rounds 3]
 *
 * Prints, per round and as medians: N threads × K steps posted at once (total until the last is idle, POST → idle per
 * thread at p50/p95/p99 with every wait included) against N concurrent bare `openai` SDK loops; the same per-thread
 * time alone; a fan-out of N non-blocking children against one request plus N concurrent bare loops; the resident
 * memory of the app's whole process group before, at peak, after and once idle, and its growth per thread created.
 */
import { parseArgs } from "node:util";
import { startBlackBoxApp, totalKiB, type BlackBoxApp } from "./black-box-app";
import { openaiLoop, sdkClient } from "./direct-loops";
import { loopRules, median, percentile, round, sleep, startFakeServer, type FakeServer } from "./harness";
import { openSse } from "./sse-client";
import type { Rule } from "../scripts/fake-llm/script-schema";

const { values } = parseArgs({
  options: { threads: { type: "string" }, steps: { type: "string" }, children: { type: "string" }, rounds: { type: "string" }, quick: { type: "boolean" } },
  strict: true,
});
const quick = values.quick === true;
const N = Number(values.threads ?? (quick ? 40 : 200));
const K = Number(values.steps ?? 3);
const CHILDREN = Number(values.children ?? (quick ? 20 : 100));
const ROUNDS = Number(values.rounds ?? (quick ? 1 : 3));
const ALONE = quick ? 5 : 20;

const json = async (url: string, method = "GET", body?: unknown) => {
  const res = await fetch(url, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return res.json() as Promise<any>;
};
const createThread = async (app: BlackBoxApp, agent: string) => (await json(`${app.url}/api/threads`, "POST", { agent_id: agent })).threadId as string;

/** Resolves with the time the thread's stream said it is idle after `armed()` was called. */
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

async function threadsAtOnce(app: BlackBoxApp, key: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await createThread(app, "looper"));
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

async function bareLoops(fake: FakeServer, key: string, n: number) {
  const client = sdkClient(fake.url);
  const t0 = performance.now();
  const runs = await Promise.all(Array.from({ length: n }, () => openaiLoop(client, "You are the bench looper.", `${key} start`)));
  if (runs.some((r) => r.steps !== K)) throw new Error(`a bare loop ran ${runs.find((r) => r.steps !== K)!.steps} steps, not ${K}`);
  return performance.now() - t0;
}

function fanOutScript(children: number): Rule[] {
  const spawner = "You are the bench spawner.";
  return [
    { when: { system_contains: spawner, last_role: "user", last_contains: "fan out" }, respond: { tool_calls: Array.from({ length: children }, () => ({ name: "bench_child", arguments: { task: "fan work" } })) } },
    { when: { system_contains: spawner }, respond: { content: "noted" } },
    { when: { last_role: "user", last_contains: "fan work" }, respond: { tool_calls: [{ name: "echo", arguments: { text: "fan#1#" } }] } },
    { when: { last_contains: "echo: fan#1#" }, respond: { tool_calls: [{ name: "echo", arguments: { text: "fan#2#" } }] } },
    { when: { last_contains: "echo: fan#2#" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "child done" } }] } },
  ];
}

async function fanOut(app: BlackBoxApp, children: number) {
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

async function fanOutBaseline(fake: FakeServer, children: number) {
  const client = sdkClient(fake.url);
  const t0 = performance.now();
  await client.chat.completions.create({ model: "bench-model", messages: [{ role: "system", content: "You are the bench spawner." }, { role: "user", content: "fan out now" }] });
  await Promise.all(Array.from({ length: children }, () => openaiLoop(client, "You are the bench child.", "fan work")));
  return performance.now() - t0;
}

const fmt = (ms: number) => `${round(ms, 0)} ms`;
const mib = (kib: number) => `${round(kib / 1024, 1)} MiB`;

async function main() {
  const fake = await startFakeServer();
  const app = await startBlackBoxApp(fake.url);
  let created = 0;
  try {
    console.log(`app: npm start, pid ${app.pid}, ${app.url}; threads ${N} × ${K} steps, fan-out ${CHILDREN}, ${ROUNDS} round(s)`);
    // Warm-up: one thread alone, so that first-request compilation is not counted.
    await fake.setScript(loopRules("warm", K));
    await threadsAtOnce(app, "warm", 2);
    created += 2;
    await sleep(1000);
    const before = app.memory();
    console.log(`resting RSS of the process group: ${mib(totalKiB(before))} (${before.map((p) => `${p.name} ${mib(p.rssKiB)}`).join("; ")})`);
    let peak = totalKiB(before);
    const sampler = setInterval(() => (peak = Math.max(peak, totalKiB(app.memory()))), 250);

    const rows: Record<string, number[]> = { ours: [], bare: [], p50: [], p95: [], p99: [], alone: [], fan: [], fanBare: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const key = `r${r}`;
      await fake.setScript(loopRules(key, K));
      rows.bare!.push(await bareLoops(fake, key, N));
      const load = await threadsAtOnce(app, key, N);
      created += N;
      rows.ours!.push(load.total);
      rows.p50!.push(percentile(load.perThread, 50));
      rows.p95!.push(percentile(load.perThread, 95));
      rows.p99!.push(percentile(load.perThread, 99));
      const alone: number[] = [];
      for (let i = 0; i < ALONE; i++) alone.push((await threadsAtOnce(app, key, 1)).perThread[0]!);
      created += ALONE;
      rows.alone!.push(median(alone));
      await fake.setScript(fanOutScript(CHILDREN));
      rows.fanBare!.push(await fanOutBaseline(fake, CHILDREN));
      rows.fan!.push(await fanOut(app, CHILDREN));
      created += CHILDREN + 1;
      await fake.clear();
      console.log(
        `round ${r + 1}: ${N}×${K} ours ${fmt(load.total)} vs bare ${fmt(rows.bare!.at(-1)!)}; POST→idle p50 ${fmt(rows.p50!.at(-1)!)} p95 ${fmt(rows.p95!.at(-1)!)} p99 ${fmt(rows.p99!.at(-1)!)}; alone ${fmt(rows.alone!.at(-1)!)}; fan-out ${fmt(rows.fan!.at(-1)!)} vs bare ${fmt(rows.fanBare!.at(-1)!)}`,
      );
    }
    clearInterval(sampler);
    const after = totalKiB(app.memory());
    await sleep(10_000);
    const idle = totalKiB(app.memory());
    const m = (k: string) => median(rows[k]!);
    console.log("\nmeasure                                              median");
    const line = (label: string, value: string) => console.log(`${label.padEnd(52)} ${value}`);
    line(`${N} threads × ${K} steps at once: ours, until last idle`, fmt(m("ours")));
    line(`${N} concurrent bare openai loops of ${K} steps`, fmt(m("bare")));
    line("  ratio ours / bare", `${round(m("ours") / m("bare"))}×`);
    line("POST → idle per thread under load, p50 / p95 / p99", `${fmt(m("p50"))} / ${fmt(m("p95"))} / ${fmt(m("p99"))}`);
    line("POST → idle per thread alone, p50", fmt(m("alone")));
    line("  ratio p95 under load / alone", `${round(m("p95") / m("alone"))}×`);
    line(`fan-out of ${CHILDREN}: ours, post → parent idle after all reports`, fmt(m("fan")));
    line(`one request + ${CHILDREN} concurrent bare 3-step loops`, fmt(m("fanBare")));
    line("  ratio ours / bare", `${round(m("fan") / m("fanBare"))}×`);
    line("RSS of the app's process group: before / peak", `${mib(totalKiB(before))} / ${mib(peak)}`);
    line("  after the load / 10 s later (idle)", `${mib(after)} / ${mib(idle)}`);
    line(`  growth per thread created (${created} threads)`, `${round((idle - totalKiB(before)) / created, 2)} KiB`);
  } finally {
    await app.close();
    await fake.close();
  }
}

await main();
