/**
 * Scenario 5, SSE fan-out: C clients (in a child process) subscribed to one busy thread, a tool loop of S steps.
 * Delivery latency of each persisted event at each client, measured two ways on epoch clocks of the same machine:
 * from the event row's `at` (its creation time, set inside the transaction before commit; ms resolution) and from
 * the publish on the in-process bus after the commit (sub-ms; the bench subscribes to the bus first).
 */
import { createThread, loopRules, postMessage, row, sleep, startBenchApp, watchThread, type FakeServer, type Options, type ScenarioResult } from "./harness";
import { epochNow, startListeners } from "./sse-client";

export async function sseFanOut(fake: FakeServer, opts: Options): Promise<ScenarioResult> {
  const clients = opts.quick ? 50 : 200;
  const steps = opts.quick ? 20 : 50;
  const name = `5 sse ×${clients}`;
  await fake.setScript(loopRules("s5", steps));
  const b = await startBenchApp(fake.url);
  const listeners = await startListeners();
  const fromPersist: number[] = [];
  const fromPublish: number[] = [];
  let missing = 0;
  let events: number;
  try {
    const id = await createThread(b.url, "looper");
    const at = new Map<number, number>();
    const published = new Map<number, number>();
    b.app.bus.subscribe(id, (env) => {
      if (!env.persisted) return;
      published.set(env.seq, epochNow());
      at.set(env.seq, Date.parse(env.at));
    });
    await listeners.open(`${b.url}/api/threads/${id}/stream`, clients);
    const w = watchThread(b.app, id);
    await postMessage(b.url, id, "s5 start");
    await w.done;
    await sleep(500);
    const received = await listeners.stop();
    events = published.size;
    for (const mine of received) {
      const seen = new Set<number>();
      for (const [seq, type, t] of mine) {
        if (type === "token.delta" || !published.has(seq)) continue;
        seen.add(seq);
        fromPersist.push(t - at.get(seq)!);
        fromPublish.push(t - published.get(seq)!);
      }
      missing += published.size - seen.size;
    }
  } finally {
    listeners.close();
    await b.close();
  }
  await fake.clear();
  const p99 = (v: number[]) => [...v].sort((x, y) => x - y)[Math.min(v.length - 1, Math.ceil(0.99 * v.length) - 1)] ?? NaN;
  return {
    rows: [
      row(name, "delivery, event row created → client", fromPersist, "ms", `p99 ${p99(fromPersist).toFixed(1)} ms`),
      row(name, "delivery, bus publish (after commit) → client", fromPublish, "ms", `p99 ${p99(fromPublish).toFixed(1)} ms`),
    ],
    notes: [
      `Scenario 5: ${clients} SSE clients in a child process on one thread running ${steps} steps; ${events} persisted events × ${clients} clients = ${fromPublish.length} deliveries timed; ${missing} deliveries missing.`,
    ],
  };
}
