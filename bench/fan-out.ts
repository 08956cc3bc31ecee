/**
 * Scenario 3, fan-out: a parent answers one message with N non-blocking `bench_child` calls; each child (a dual_ai
 * subagent) runs 3 steps (echo, echo, finish_work) and reports back as a queued message the parent answers. Measured
 * from posting the message until the parent has received and answered all N reports and is idle. Baseline: N
 * concurrent 3-step loops on the bare `openai` SDK.
 */
import { openaiLoop, sdkClient } from "./direct-loops";
import { countType, createThread, median, postMessage, row, startBenchApp, watchThread, type FakeServer, type Timed, type Options, type ScenarioResult } from "./harness";
import type { Rule } from "../scripts/fake-llm/script-schema";

function script(children: number): Rule[] {
  const spawner = "You are the bench spawner.";
  return [
    {
      when: { system_contains: spawner, last_role: "user", last_contains: "fan out" },
      respond: { tool_calls: Array.from({ length: children }, () => ({ name: "bench_child", arguments: { task: "fan work" } })) },
    },
    { when: { system_contains: spawner, last_role: "tool" }, respond: { content: "spawned" } },
    { when: { system_contains: spawner }, respond: { content: "noted" } },
    { when: { last_role: "user", last_contains: "fan work" }, respond: { tool_calls: [{ name: "echo", arguments: { text: "fan#1#" } }] } },
    { when: { last_contains: "echo: fan#1#" }, respond: { tool_calls: [{ name: "echo", arguments: { text: "fan#2#" } }] } },
    { when: { last_contains: "echo: fan#2#" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "child done" } }] } },
  ];
}

export async function fanOut(fake: FakeServer, opts: Options): Promise<ScenarioResult> {
  const children = opts.quick ? 20 : 100;
  const runs = opts.quick ? 2 : 3;
  const name = `3 fan-out ×${children}`;

  const client = sdkClient(fake.url);
  await fake.setScript(script(children));
  const direct: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: children }, () => openaiLoop(client, "You are the bench child.", "fan work")));
    if (results.some((r) => r.steps !== 3 || r.result !== "child done")) throw new Error("a direct child loop did not run 3 steps");
    if (i > 0) direct.push(performance.now() - t0);
    await fake.clear();
  }

  // Every child may run at once (the scheduler's cap, 64 by default, is raised above the child count).
  const b = await startBenchApp(fake.url, { RUNTIME_CONCURRENCY: String(children + 1) });
  const total: number[] = [];
  const cpu: number[] = [];
  const lifetimes: number[] = [];
  let maxLive = 0;
  try {
    for (let i = 0; i < runs; i++) {
      const id = await createThread(b.url, "spawner");
      const spawnedAt = new Map<string, number>();
      let live = 0;
      const off = b.app.bus.subscribe(id, (env) => {
        const e = env.event;
        if (e.type !== "subagent.updated") return;
        if (e.change === "spawned") {
          spawnedAt.set(e.childId, performance.now());
          maxLive = Math.max(maxLive, ++live);
        } else if (e.change === "completed" || e.change === "failed") {
          live--;
          lifetimes.push(performance.now() - (spawnedAt.get(e.childId) ?? NaN));
        }
      });
      const reported = (evs: Timed[]) =>
        evs.filter((x) => x.env.event.type === "subagent.updated" && (x.env.event.change === "completed" || x.env.event.change === "failed")).length;
      const w = watchThread(b.app, id, (evs) => reported(evs) === children && countType(evs, "queue.delivered") === countType(evs, "queue.enqueued"));
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await postMessage(b.url, id, "fan out now");
      await w.done;
      total.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000 / children);
      off();
      const failed = w.events.filter((x) => x.env.event.type === "subagent.updated" && x.env.event.change === "failed").length;
      if (failed > 0) throw new Error(`${failed} children failed`);
      await fake.clear();
    }
  } finally {
    await b.close();
  }
  return {
    rows: [
      row(name, "ours: total, post → all reports answered", total, "ms"),
      row(name, "direct: N concurrent 3-step openai loops", direct, "ms"),
      row(name, "ours: per child (total / N)", total.map((t) => t / children), "ms"),
      row(name, "direct: per child (total / N)", direct.map((t) => t / children), "ms"),
      row(name, "ours: CPU time per child (this process)", cpu, "ms", "user + system; runtime, API and the bench's watchers"),
      row(name, "ours: child lifetime, spawned → reported", lifetimes, "ms", "over all children"),
      { scenario: name, metric: "ratio ours/direct (total)", median: Number((median(total) / median(direct)).toFixed(2)), p95: "", unit: "×" },
    ],
    notes: [
      `Scenario 3: ${children} children per run, ${runs} runs; at most ${maxLive} children were live at once (RUNTIME_CONCURRENCY=${children + 1}).`,
    ],
  };
}
