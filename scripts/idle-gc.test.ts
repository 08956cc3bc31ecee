import { describe, expect, it } from "vitest";
import { exposeGc, startIdleGc } from "./idle-gc";

const busyFor = (ms: number) => {
  const end = performance.now() + ms;
  let garbage: unknown[] = [];
  while (performance.now() < end) {
    garbage.push({ text: "x".repeat(64), at: Math.random() });
    if (garbage.length > 50_000) garbage = [];
  }
};

describe("idle GC", () => {
  it("exposes the engine's gc() without --expose-gc", () => {
    const gc = exposeGc();
    expect(typeof gc).toBe("function");
    expect(() => gc()).not.toThrow();
  });

  const busySpell = async () => {
    for (let i = 0; i < 6; i++) {
      busyFor(150);
      await new Promise((r) => setImmediate(r));
    }
  };
  const waitFor = async (test: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!test() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };
  /** A heap whose use the test sets, and a collection that brings it back to 100 MB. */
  const fakeHeap = () => {
    const heap = { used: 100e6, collections: 0 };
    return { heap, heapUsed: () => heap.used, collect: () => ((heap.used = 100e6), heap.collections++) };
  };
  const timing = { intervalMs: 100, busyAbove: 0.5, quietMs: 300, minGrowthBytes: 16e6 };

  it("does nothing after a busy spell when the heap grew less than the threshold", async () => {
    const { heap, heapUsed, collect } = fakeHeap();
    const stop = startIdleGc({ ...timing, heapUsed, collect });
    try {
      heap.used = 110e6;
      await busySpell();
      await new Promise((r) => setTimeout(r, 800));
      expect(heap.collections).toBe(0);
    } finally {
      stop();
    }
  });

  it("collects once the event loop has been quiet after a busy spell in which the heap grew, not while it is busy", async () => {
    const { heap, heapUsed, collect } = fakeHeap();
    const collections: { beforeBytes: number; afterBytes: number }[] = [];
    const stop = startIdleGc({ ...timing, heapUsed, collect, onCollect: (c) => collections.push(c) });
    try {
      heap.used = 150e6;
      // Quiet, never busy since the start: nothing yet.
      await new Promise((r) => setTimeout(r, 600));
      expect(heap.collections).toBe(0);
      await busySpell();
      expect(heap.collections).toBe(0);
      await waitFor(() => heap.collections > 0, 5000);
      expect(collections).toEqual([{ beforeBytes: 150e6, afterBytes: 100e6, ms: expect.any(Number) }]);
      // Quiet since: no second collection without another busy spell.
      heap.used = 150e6;
      await new Promise((r) => setTimeout(r, 800));
      expect(heap.collections).toBe(1);
    } finally {
      stop();
    }
  });
});
