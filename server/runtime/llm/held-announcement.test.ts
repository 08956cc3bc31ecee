/**
 * `announceAfterMs`: an attempt's announcement waits while the request is young, so an answer that comes first can be
 * stored together with it. Against the scripted server over real HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { createOpenAiClient } from "./llm-client";
import { modelOn, userSays } from "./test-support";
import type { LlmAttempt, LlmCallOptions } from "./types";

let fake: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());
beforeEach(() => fake.clearRequests());

/** Call options that record, in order, announcements, deltas and attempt logs. */
function watching(announceAfterMs: number) {
  const order: string[] = [];
  const attempts: LlmAttempt[] = [];
  const opts: LlmCallOptions = {
    announceAfterMs,
    onAttemptStart: async ({ attempt }) => {
      order.push(`announce ${attempt}`);
    },
    onDelta: (d) => void order.push(`delta ${d.content ?? d.reasoning}`),
    onAttempt: (a) => {
      order.push(`log ${a.attempt} ${a.status}`);
      attempts.push(a);
    },
  };
  return { order, attempts, opts };
}

const call = (opts: LlmCallOptions) =>
  createOpenAiClient({ maxRetries: 1 }).complete({ models: [modelOn(fake, "a", "model-a")], messages: userSays("x") }, opts);

describe("a held-back announcement", () => {
  it("is not made for a tool call that comes before the delay: the attempt says so, and the caller owes it", async () => {
    fake.setScript([{ respond: { tool_calls: [{ name: "echo", arguments: { text: "hi" } }] } }]);
    const w = watching(2_000);
    const result = await call(w.opts);
    expect(result.toolCalls.map((c) => c.name)).toEqual(["echo"]);
    expect(w.order).toEqual(["log 1 success"]);
    expect(w.attempts[0]!.announced).toBe(false);
  });

  it("is made once the request has been in flight for the delay, while the model works", async () => {
    fake.setScript([{ delay_ms: 250, respond: { tool_calls: [{ name: "echo", arguments: { text: "hi" } }] } }]);
    const w = watching(30);
    let announcedAt = -1;
    const started = performance.now();
    const opts: LlmCallOptions = {
      ...w.opts,
      onAttemptStart: async (s) => {
        announcedAt = performance.now() - started;
        await w.opts.onAttemptStart!(s);
      },
    };
    await call(opts);
    expect(announcedAt).toBeGreaterThanOrEqual(25);
    expect(announcedAt).toBeLessThan(200);
    expect(w.order).toEqual(["announce 1", "log 1 success"]);
    expect(w.attempts[0]!.announced).toBe(true);
  });

  it("is made before the first delta is forwarded, however early it comes", async () => {
    fake.setScript([{ respond: { content: "a b" } }]);
    const w = watching(2_000);
    await call(w.opts);
    expect(w.order).toEqual(["announce 1", "delta a", "delta  b", "log 1 success"]);
    expect(w.attempts[0]!.announced).toBe(true);
  });

  it("is made before a failed attempt is logged, and again for the retry that answers", async () => {
    fake.setScript([{ times: 1, status: 500 }, { respond: { tool_calls: [{ name: "echo", arguments: {} }] } }]);
    const w = watching(2_000);
    await call({ ...w.opts });
    expect(w.order).toEqual(["announce 1", "log 1 error", "log 2 success"]);
    expect(w.attempts.map((a) => a.announced)).toEqual([true, false]);
  });
});

describe("work that overlaps the wait (whileInFlight)", () => {
  /** A write that takes a while, recording its start and end in `order`. */
  function overlapped(order: string[], ms = 40) {
    let runs = 0;
    return {
      get runs() {
        return runs;
      },
      whileInFlight: async () => {
        runs++;
        order.push("overlap start");
        await new Promise((r) => setTimeout(r, ms));
        order.push("overlap end");
      },
    };
  }

  it("runs once, after the request left, and settles before the first delta and before the attempt is logged", async () => {
    fake.setScript([{ delay_ms: 150, respond: { content: "a b" } }]);
    const w = watching(2_000);
    const o = overlapped(w.order);
    const started = performance.now();
    await call({ ...w.opts, whileInFlight: o.whileInFlight });
    // The model's 150 ms and the write's 40 ms overlap.
    expect(performance.now() - started).toBeLessThan(150 + 40 + 100);
    expect(o.runs).toBe(1);
    expect(w.order).toEqual(["overlap start", "overlap end", "announce 1", "delta a", "delta  b", "log 1 success"]);
  });

  it("comes before the announcement of a fast answer and before the retry of a failed attempt", async () => {
    fake.setScript([{ times: 1, status: 500 }, { respond: { tool_calls: [{ name: "echo", arguments: {} }] } }]);
    const w = watching(2_000);
    const o = overlapped(w.order, 5);
    await call({ ...w.opts, whileInFlight: o.whileInFlight });
    expect(o.runs).toBe(1);
    expect(w.order).toEqual(["overlap start", "overlap end", "announce 1", "log 1 error", "log 2 success"]);
  });

  it("cancels the call when it fails, and the call fails with its error", async () => {
    fake.setScript([{ delay_ms: 500, respond: { content: "never seen" } }]);
    const w = watching(2_000);
    const started = performance.now();
    const failure = await call({
      ...w.opts,
      whileInFlight: async () => {
        throw new Error("the write failed");
      },
    }).catch((e: unknown) => e);
    expect((failure as Error).message).toBe("the write failed");
    expect(performance.now() - started).toBeLessThan(400);
    expect(w.order).toEqual([]);
  });
});

describe("overlapped work held with the announcement (holdWhileInFlight)", () => {
  const recording = (order: string[]) => async () => {
    order.push("overlap");
  };

  it("never runs for a tool call that comes before the delay: the caller does that work itself", async () => {
    fake.setScript([{ respond: { tool_calls: [{ name: "echo", arguments: { text: "hi" } }] } }]);
    const w = watching(2_000);
    await call({ ...w.opts, whileInFlight: recording(w.order), holdWhileInFlight: true });
    expect(w.order).toEqual(["log 1 success"]);
    expect(w.attempts[0]!.announced).toBe(false);
  });

  it("runs, then the announcement, once the request has been in flight for the delay", async () => {
    fake.setScript([{ delay_ms: 250, respond: { tool_calls: [{ name: "echo", arguments: {} }] } }]);
    const w = watching(30);
    await call({ ...w.opts, whileInFlight: recording(w.order), holdWhileInFlight: true });
    expect(w.order).toEqual(["overlap", "announce 1", "log 1 success"]);
  });

  it("runs before the first delta, and before a failed attempt is logged", async () => {
    fake.setScript([{ respond: { content: "a" } }]);
    const w = watching(2_000);
    await call({ ...w.opts, whileInFlight: recording(w.order), holdWhileInFlight: true });
    expect(w.order).toEqual(["overlap", "announce 1", "delta a", "log 1 success"]);

    fake.setScript([{ times: 1, status: 500 }, { respond: { tool_calls: [{ name: "echo", arguments: {} }] } }]);
    const f = watching(2_000);
    await call({ ...f.opts, whileInFlight: recording(f.order), holdWhileInFlight: true });
    expect(f.order).toEqual(["overlap", "announce 1", "log 1 error", "log 2 success"]);
  });

  it("without an announcement to wait with, runs at once as before", async () => {
    fake.setScript([{ respond: { tool_calls: [{ name: "echo", arguments: {} }] } }]);
    const order: string[] = [];
    await call({ whileInFlight: recording(order), holdWhileInFlight: true, onAttempt: () => void order.push("log") });
    expect(order).toEqual(["overlap", "log"]);
  });
});
