import { describe, expect, it } from "vitest";
import { createMetrics, noMetrics } from "./metrics";

describe("process metrics", () => {
  it("an app process samples its event loop and process figures; a process that serves none collects nothing", async () => {
    const listeners: unknown[] = [];
    const app = createMetrics({
      subscribeAll: (l) => {
        listeners.push(l);
        return () => listeners.splice(listeners.indexOf(l), 1);
      },
      prices: () => undefined,
      queueDepth: async () => ({ pending: 0, claimed: 0 }),
    });
    try {
      const text = await app.render();
      expect(text).toContain("studio_nodejs_eventloop_lag_seconds");
      expect(text).toContain("studio_process_cpu_seconds_total");
      expect(listeners).toHaveLength(1);
    } finally {
      app.close();
    }
    expect(listeners).toHaveLength(0);
    const none = noMetrics();
    expect((await none.render()).trim()).toBe("");
    none.close();
  });
});
