/**
 * Scenario 1, per-step overhead: a 50-step tool loop (49 `echo` calls, then text) through our runtime, with every
 * message, event, LLM log and work item persisted and every event published, versus (a) the bare `openai` SDK loop
 * and (b) `@openai/agents`. The scripted server answers at once, so what is left is the framework.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startBaselines } from "./baseline-process";
import {
  countType,
  createThread,
  llmLatencies,
  loopRules,
  median,
  postMessage,
  round,
  row,
  startBenchApp,
  sum,
  watchThread,
  type BenchApp,
  type FakeServer,
  type Options,
  type ScenarioResult,
} from "./harness";
import { installSqlCounter, pgSocketWrites, resetSqlCounts, sqlCounts } from "./sql-counter";

const STEPS = 50;
const SYSTEM = "You are the bench looper.";

/** `on`: another database for our runtime (a PostgreSQL URL; SQLite by default) and the scenario's name for it. */
export async function stepOverhead(fake: FakeServer, opts: Options, on?: { databaseUrl: string; label: string }): Promise<ScenarioResult> {
  // The JIT needs a few hundred steps before any of the three loops runs at its steady pace (a long-running server's
  // pace): the first rounds are warm-up. Each round runs all three once, so a drift in the machine's speed (another
  // process, CPU frequency) touches the three alike.
  const runs = opts.quick ? 5 : 20;
  const warmup = opts.quick ? 3 : 40;
  const name = on ? `1 per-step, ${on.label}` : "1 per-step";
  await fake.setScript(loopRules("s1", STEPS));
  // (a) and (b) run in a process of their own (see baseline-process.ts), ours in this one with the app.
  const baselines = await startBaselines(fake.url);
  installSqlCounter();
  const b = await startBenchApp(fake.url, on ? { DATABASE_URL: on.databaseUrl } : {});
  let sql: [string, number][] = [];
  let writes = 0;
  // One monitor per measured run: a monitor re-enabled after a pause would count the pause as one long delay.
  const delays: { p50: number; p99: number; max: number }[] = [];
  const bare: number[] = [];
  const bareLlm: number[] = [];
  const bareOnOurs: number[] = [];
  const agents: number[] = [];
  const ours: number[] = [];
  const oursLlm: number[] = [];
  const firstStep: number[] = [];
  const cpu: number[] = [];
  const logBytes: number[] = [];
  try {
    for (let i = 0; i < warmup + runs; i++) {
      const measured = i >= warmup;
      // (a) bare SDK loop
      const { ms: bareMs, stats: r } = await baselines.run("openai", SYSTEM, "s1 start");
      if (r.steps !== STEPS) throw new Error(`openai loop ran ${r.steps} steps, expected ${STEPS}`);
      if (measured) {
        bare.push(bareMs / STEPS);
        bareLlm.push(r.llmMs / STEPS);
      }
      await fake.clear();

      // (a') the same loop on our runtime's HTTP transport
      const { ms: leanMs, stats: l } = await baselines.run("openai-transport", SYSTEM, "s1 start");
      if (l.steps !== STEPS) throw new Error(`openai loop on our transport ran ${l.steps} steps, expected ${STEPS}`);
      if (measured) bareOnOurs.push(leanMs / STEPS);
      await fake.clear();

      // (b) @openai/agents
      const { ms: agentsMs, stats: a } = await baselines.run("agents", SYSTEM, "s1 start");
      if (a.steps !== STEPS) throw new Error(`@openai/agents ran ${a.steps} steps, expected ${STEPS}`);
      if (measured) agents.push(agentsMs / STEPS);
      await fake.clear();

      // ours: a fresh thread per run, REST to create and post, the bus to see it finish
      const id = await createThread(b.url, "looper");
      const w = watchThread(b.app, id);
      resetSqlCounts();
      const runDelay = monitorEventLoopDelay({ resolution: 5 });
      if (measured) runDelay.enable();
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await postMessage(b.url, id, "s1 start");
      await w.done;
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      runDelay.disable();
      if (measured) delays.push({ p50: runDelay.percentile(50) / 1e6, p99: runDelay.percentile(99) / 1e6, max: runDelay.max / 1e6 });
      const steps = countType(w.events, "step.started");
      if (steps !== STEPS) throw new Error(`our runtime ran ${steps} steps, expected ${STEPS}`);
      if (measured) {
        ours.push(ms / STEPS);
        oursLlm.push(sum(llmLatencies(w.events)) / STEPS);
        cpu.push((c.user + c.system) / 1000 / STEPS);
        // The first request left when its answer's latency began: the answer's publish time minus that latency.
        const first = w.events.find((e) => e.env.event.type === "llm.response");
        const latency = first?.env.event.type === "llm.response" ? first.env.event.latencyMs : undefined;
        if (first && latency !== undefined) firstStep.push(first.t - latency - t0);
        sql = sqlCounts();
        writes = pgSocketWrites();
        logBytes.push(await storedLogBytes(b, id));
      }
      await fake.clear();
    }
  } finally {
    await b.close();
    await baselines.close();
  }

  const ratio = (x: number[], y: number[]) => round(median(x) / median(y));
  const overheadOurs = ours.map((v, i) => v - (oursLlm[i] ?? 0));
  const overheadBare = bare.map((v, i) => v - (bareLlm[i] ?? 0));
  const perStep = (n: number) => round(n / STEPS, 1);
  const total = sql.reduce((a, [, n]) => a + n, 0);
  return {
    rows: [
      row(name, "ours (runtime, persisted, published)", ours, "ms/step"),
      row(name, "(a) openai SDK loop, no persistence", bare, "ms/step"),
      row(name, "(a') openai SDK loop on our HTTP transport", bareOnOurs, "ms/step", "(a) with the runtime's fetch as the SDK's"),
      row(name, "(b) @openai/agents loop", agents, "ms/step"),
      { scenario: name, metric: "ratio ours/(a)", median: ratio(ours, bare), p95: "", unit: "×", note: "goal ≤ 1.5" },
      { scenario: name, metric: "ratio ours/(b)", median: ratio(ours, agents), p95: "", unit: "×", note: "goal < 1" },
      { scenario: name, metric: "ratio ours/(a')", median: ratio(ours, bareOnOurs), p95: "", unit: "×", note: "the same transport on both sides" },
      // Each round's own ratio: the three loops of a round ran within a second of each other, on the same machine state.
      row(name, "ratio ours/(a), per round", ours.map((v, i) => v / bare[i]!), "×", "median and p95 over rounds"),
      row(name, "ratio ours/(b), per round", ours.map((v, i) => v / agents[i]!), "×", "median and p95 over rounds"),
      row(name, "ours: LLM call as timed by the runtime", oursLlm, "ms/step", "request sent → stream assembled"),
      row(name, "ours: everything else (persist, events, context)", overheadOurs, "ms/step"),
      row(name, "(a): LLM call", bareLlm, "ms/step"),
      row(name, "(a): everything else", overheadBare, "ms/step"),
      row(name, "ours: POST message → first request sent", firstStep, "ms", "a turn's fixed cost, in the per-step figure"),
      row(name, "ours: CPU time of the process per step", cpu, "ms/step", "user + system, runtime and API in one process"),
      row(name, "ours: LLM request log stored per step", logBytes.map((n) => n / STEPS / 1024), "KiB/step", "JSON text; requests stored as deltas"),
    ],
    notes: [
      `Scenario ${name} database: ${b.database}`,
      `Scenario ${name} SQL statements per step (last run, ${on ? "every query of the process's PostgreSQL clients, NOTIFY included" : "SQLite driver"}): ${perStep(total)} in all; ` +
        sql.slice(0, 14).map(([k, n]) => `${k} ${perStep(n)}`).join(", ") +
        (on ? `; socket writes of those clients (round trips) per step: ${perStep(writes)}` : ""),
      `Scenario 1 event-loop delay during our measured runs (perf_hooks, 5 ms resolution; per run, then the median over runs): p50 ${round(median(delays.map((d) => d.p50)), 1)} ms, p99 ${round(median(delays.map((d) => d.p99)), 1)} ms; the longest in any run ${round(Math.max(...delays.map((d) => d.max)), 1)} ms.`,
      `Scenario 1: ${STEPS} LLM calls per run (${STEPS - 1} echo tool calls, then text); ${runs} measured rounds after ${warmup} warm-up rounds, each round one run of (a), (a'), (b) and ours in turn; all stream. (a) and (a') run in a process of their own, (b) in another (bench/baseline-process.ts): @openai/agents keeps an AsyncLocalStorage, whose promise hooks (Node 20) would otherwise tax every promise of the process it ran in, ours or (a)'s.`,
    ],
  };
}

/** The JSON text the run's request logs take in the database (each request stored as a delta against the previous). */
async function storedLogBytes(b: BenchApp, threadId: string): Promise<number> {
  const [r] = await b.app.prisma.$queryRaw<{ n: number | bigint | null }[]>`SELECT SUM(LENGTH(CAST("request" AS TEXT))) AS "n" FROM "LlmRequestLog" WHERE "threadId" = ${threadId}`;
  return Number(r?.n ?? 0);
}
