import { describe, expect, it } from "vitest";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { ThreadSequencer } from "./thread-sequencer";

/** The ordering rules of the PostgreSQL bus, over an in-memory log (the PostgreSQL tests run the same over a server). */
function setup() {
  const log: ThreadEventEnvelope[] = [];
  const reads: string[] = [];
  const out: string[] = [];
  const seq = new ThreadSequencer({
    readEvents: async (threadId, after, limit) => {
      reads.push(`${threadId}>${after}x${limit}`);
      await new Promise((r) => setTimeout(r, 5));
      return log.filter((e) => e.threadId === threadId && e.seq > after).slice(0, limit);
    },
    deliver: (e) => out.push(`${e.threadId}:${e.persisted ? "p" : "d"}${e.seq}`),
  });
  const persisted = (threadId: string, n: number): ThreadEventEnvelope => {
    const e: ThreadEventEnvelope = { threadId, seq: n, persisted: true, at: "", event: { type: "custom", event: "x", data: n } };
    log.push(e);
    return e;
  };
  const delta = (threadId: string, n: number): ThreadEventEnvelope => ({
    threadId,
    seq: n,
    persisted: false,
    at: "",
    event: { type: "token.delta", stepId: "s", side: "a", content: "x" },
  });
  return { seq, log, reads, out, persisted, delta };
}

describe("ThreadSequencer", () => {
  it("delivers in-order events at once, drops repeats, and fills a gap from the log before a later event", async () => {
    const { seq, out, reads, persisted, delta } = setup();
    const [e1, e2, e3] = [persisted("t", 1), persisted("t", 2), persisted("t", 3)];
    seq.push({ kind: "envelope", envelope: e1 });
    expect(out).toEqual(["t:p1"]); // synchronous: no read
    seq.push({ kind: "envelope", envelope: e3 }); // e2 still in flight from another process
    seq.push({ kind: "envelope", envelope: delta("t", 3) }); // waits behind e3
    seq.push({ kind: "envelope", envelope: e2 }); // the late original: a repeat by then
    seq.push({ kind: "envelope", envelope: e1 });
    await seq.idle();
    expect(out).toEqual(["t:p1", "t:p2", "t:p3", "t:d3"]);
    expect(reads).toEqual(["t>1x1"]);
  });

  it("reads a referenced event from the log; without a remembered seq only that row", async () => {
    const { seq, out, reads, persisted } = setup();
    for (let i = 1; i <= 5; i++) persisted("t", i);
    seq.push({ kind: "ref", threadId: "t", seq: 4 });
    await seq.idle();
    expect(out).toEqual(["t:p4"]);
    expect(reads).toEqual(["t>3x1"]);
    seq.push({ kind: "ref", threadId: "t", seq: 4 });
    expect(seq.busyThreads).toBe(0); // already delivered: dropped without a read
  });

  it("holds a delta that follows an unseen persisted event until the log supplies it; other threads go on", async () => {
    const { seq, out, persisted, delta } = setup();
    seq.push({ kind: "envelope", envelope: persisted("t", 1) });
    persisted("t", 2);
    seq.push({ kind: "envelope", envelope: delta("t", 2) });
    seq.push({ kind: "envelope", envelope: persisted("u", 1) });
    expect(out).toEqual(["t:p1", "u:p1"]);
    await seq.idle();
    expect(out).toEqual(["t:p1", "u:p1", "t:p2", "t:d2"]);
  });

  it("still delivers an event whose gap cannot be read (the subscriber's own backfill covers it)", async () => {
    const out: number[] = [];
    const errors: unknown[] = [];
    const seq = new ThreadSequencer({
      readEvents: async () => {
        throw new Error("database down");
      },
      deliver: (e) => out.push(e.seq),
      readAttempts: 1,
      onError: (err) => errors.push(err),
    });
    const env = (n: number): ThreadEventEnvelope => ({ threadId: "t", seq: n, persisted: true, at: "", event: { type: "custom", event: "x", data: n } });
    seq.push({ kind: "envelope", envelope: env(1) });
    seq.push({ kind: "envelope", envelope: env(5) });
    await seq.idle();
    expect(out).toEqual([1, 5]);
    expect(errors).toHaveLength(1);
  });
});
