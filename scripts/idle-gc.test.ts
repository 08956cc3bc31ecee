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

  it("collects once the event loop has been quiet after a busy spell in which the heap grew", async () => {
    const collections: { beforeBytes: number; afterBytes: number }[] = [];
    const stop = startIdleGc({ intervalMs: 50, quietMs: 200, minGrowthBytes: 1, onCollect: (c) => collections.push(c) });
    try {
      // Quiet from the start: nothing to do.
      await new Promise((r) => setTimeout(r, 400));
      expect(collections).toHaveLength(0);
      // A busy spell (the sampler sees a busy interval), then quiet.
      for (let i = 0; i < 6; i++) {
        busyFor(60);
        await new Promise((r) => setImmediate(r));
      }
      const deadline = Date.now() + 5000;
      while (collections.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(collections).toHaveLength(1);
      expect(collections[0]!.afterBytes).toBeLessThan(collections[0]!.beforeBytes);
      // Still quiet: no second collection without another busy spell.
      await new Promise((r) => setTimeout(r, 500));
      expect(collections).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
