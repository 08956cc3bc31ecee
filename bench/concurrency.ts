/**
 * Scenario 4, concurrency: N threads posted at once in one process, each a tool loop of S steps. Step time and step
 * overhead (step time minus the LLM call as the runtime timed it) over all steps, peak RSS and heap while they run,
 * and heap per idle thread once all are idle (after a full GC, against the heap before the threads existed).
 */
import v8 from "node:v8";
import vm from "node:vm";
import {
  createThread,
  loopRules,
  mib,
  postMessage,
  round,
  row,
  startBenchApp,
  watchThread,
  type FakeServer,
  type Options,
  type ScenarioResult,
  type Timed,
} from "./harness";

let gcFn: (() => void) | null = null;
/** A full garbage collection (exposed at run time, so no node flag is needed). */
function gc(): void {
  if (!gcFn) {
    v8.setFlagsFromString("--expose-gc");
    gcFn = vm.runInNewContext("gc") as () => void;
  }
  gcFn();
  gcFn();
}

/** Samples RSS and heap every `ms` until stopped; returns the peaks. */
function sampleMemory(ms = 200) {
  let rss = 0;
  let heap = 0;
  const take = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  take();
  const timer = setInterval(take, ms);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { rss, heap };
    },
  };
}

/**
 * Per step after a thread's first: [duration, duration − LLM latency], a step lasting from the previous step's stored
 * response to its own (tools, persistence, the next request and its answer). `step.started` is no mark: it is written
 * while the request is in flight, so under load it can land well after the request left.
 */
function stepTimes(events: Timed[]): [number, number][] {
  const responses = events.filter((e) => e.env.event.type === "llm.response" && e.env.event.status === "success");
  const out: [number, number][] = [];
  for (let i = 1; i < responses.length; i++) {
    const d = responses[i]!.t - responses[i - 1]!.t;
    const e = responses[i]!.env.event;
    out.push([d, d - (e.type === "llm.response" ? (e.latencyMs ?? 0) : 0)]);
  }
  return out;
}

export async function concurrency(fake: FakeServer, opts: Options): Promise<ScenarioResult> {
  const threads = opts.quick ? 100 : 500;
  const steps = 3;
  const name = `4 concurrency ×${threads}`;
  await fake.setScript(loopRules("s4", steps));
  // All threads active at once: the scheduler's cap (64 by default) is raised to the thread count.
  const b = await startBenchApp(fake.url, { RUNTIME_CONCURRENCY: String(threads) });
  try {
    // warm the paths once, then take the baseline heap
    const warm = await createThread(b.url, "looper");
    const ww = watchThread(b.app, warm);
    await postMessage(b.url, warm, "s4 start");
    await ww.done;
    gc();
    const before = process.memoryUsage();

    const ids: string[] = [];
    for (let i = 0; i < threads; i += 25) ids.push(...(await Promise.all(Array.from({ length: Math.min(25, threads - i) }, () => createThread(b.url, "looper")))));
    const watches = ids.map((id) => watchThread(b.app, id));
    const mem = sampleMemory();
    let active = 0;
    let maxActive = 0;
    const offs = ids.map((id) =>
      b.app.bus.subscribe(id, (env) => {
        const e = env.event;
        if (e.type === "step.started" && e.step === 1) maxActive = Math.max(maxActive, ++active);
        if (e.type === "thread.status" && e.status !== "running") active--;
      }),
    );
    const t0 = performance.now();
    await Promise.all(ids.map((id) => postMessage(b.url, id, "s4 start")));
    const posted = performance.now() - t0;
    await Promise.all(watches.map((w) => w.done));
    const wall = performance.now() - t0;
    const peak = mem.stop();
    for (const off of offs) off();

    const all = watches.flatMap((w) => stepTimes(w.events));
    const counted = watches.reduce((n, w) => n + w.events.filter((e) => e.env.event.type === "step.started").length, 0);
    if (counted !== threads * steps) throw new Error(`ran ${counted} steps, expected ${threads * steps}`);
    watches.length = 0;
    await fake.clear();
    gc();
    const after = process.memoryUsage();
    return {
      rows: [
        row(name, "step time (all steps of all threads)", all.map(([d]) => d), "ms"),
        row(name, "step overhead (step − LLM call)", all.map(([, o]) => o), "ms"),
        { scenario: name, metric: "wall time, all threads idle", median: round(wall, 0), p95: "", unit: "ms", note: `${round((threads * steps) / (wall / 1000), 1)} steps/s` },
        { scenario: name, metric: "peak RSS / heap used", median: mib(peak.rss), p95: mib(peak.heap), unit: "MiB", note: "median column: RSS; p95 column: heap" },
        { scenario: name, metric: "heap per idle thread (after GC)", median: round((after.heapUsed - before.heapUsed) / threads / 1024, 1), p95: "", unit: "KiB", note: `RSS after: ${mib(after.rss)} MiB` },
      ],
      notes: [
        `Scenario 4 database: ${b.database}`,
        `Scenario 4: ${threads} threads × ${steps} steps posted at once (all ${threads} POSTs answered in ${round(posted, 0)} ms); at most ${maxActive} ran at once (RUNTIME_CONCURRENCY=${threads}); heap before ${mib(before.heapUsed)} MiB, after all idle ${mib(after.heapUsed)} MiB.`,
      ],
    };
  } finally {
    await b.close();
  }
}
