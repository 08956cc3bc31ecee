/**
 * Scenario 2, time to first token: the model waits 50 ms before its first chunk (fake-llm `first_token_delay_ms`:
 * headers at once, then the pause). Ours: an SSE client of our API, subscribed before the message is posted, from
 * `POST …/messages` to its first `token.delta`. Direct: `openai` SDK stream, from `create()` to the first content chunk.
 */
import { MODEL, sdkClient } from "./direct-loops";
import { createThread, postMessage, row, sleep, startBenchApp, watchThread, type FakeServer, type Options, type ScenarioResult } from "./harness";
import { epochNow, startListeners } from "./sse-client";

const DELAY_MS = 50;

export async function ttft(fake: FakeServer, opts: Options): Promise<ScenarioResult> {
  const runs = opts.quick ? 5 : 20;
  const warmup = 2;
  const name = "2 ttft";
  await fake.setScript([{ when: { last_contains: "ttft start" }, first_token_delay_ms: DELAY_MS, respond: { content: "Hello there, this is the first token and a few more." } }]);

  const client = sdkClient(fake.url);
  const direct: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const t0 = performance.now();
    const stream = await client.chat.completions.create({
      model: MODEL,
      stream: true,
      messages: [
        { role: "system", content: "You are the bench greeter." },
        { role: "user", content: "ttft start" },
      ],
    });
    let first = 0;
    for await (const chunk of stream) if (!first && chunk.choices[0]?.delta?.content) first = performance.now() - t0;
    if (i >= warmup) direct.push(first);
  }

  const b = await startBenchApp(fake.url);
  const listeners = await startListeners();
  const ours: number[] = [];
  const oursDone: number[] = [];
  try {
    for (let i = 0; i < warmup + runs; i++) {
      const id = await createThread(b.url, "greeter");
      const idle = watchThread(b.app, id);
      await listeners.open(`${b.url}/api/threads/${id}/stream`, 1);
      const t0 = epochNow();
      await postMessage(b.url, id, "ttft start");
      await idle.done;
      await sleep(20);
      const events = (await listeners.stop())[0] ?? [];
      const first = events.find(([, type]) => type === "token.delta");
      const last = events.findLast(([, type]) => type === "thread.status");
      if (!first || !last) throw new Error("the SSE client saw no token or no final status");
      if (i >= warmup) {
        ours.push(first[2] - t0);
        oursDone.push(last[2] - t0);
      }
    }
  } finally {
    listeners.close();
    await b.close();
  }
  await fake.clear();
  const overhead = ours.map((v) => v - (direct.sort((a, c) => a - c)[Math.floor(direct.length / 2)] ?? 0));
  return {
    rows: [
      row(name, "ours: SSE client, POST → first token.delta", ours, "ms", `model waits ${DELAY_MS} ms`),
      row(name, "direct openai SDK stream → first chunk", direct, "ms"),
      row(name, "overhead (ours − median direct)", overhead, "ms"),
      row(name, "ours: POST → thread idle on SSE", oursDone, "ms"),
    ],
    notes: [`Scenario 2: ${runs} measured runs after ${warmup} warm-up; a fresh thread per run; the SSE client runs in its own process (bench/sse-listeners.ts), subscribed before the POST; times are epoch ms with sub-ms resolution (performance.timeOrigin + now) in both processes.`],
  };
}
