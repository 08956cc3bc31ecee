/**
 * A full garbage collection once the server has gone quiet after work. V8 lets the old generation fill with garbage
 * until its growth heuristics call for a mark-compact: after a burst of threads (200 threads × 3 steps leave about
 * 45 MiB of garbage) the heap, and with it the resident set, stays that much larger while the server idles, and grows
 * burst after burst until V8 collects. Here, when the main thread's event-loop utilization has been low for
 * `quietMs` after a busy spell and the heap grew by `minGrowthBytes` since the last collection, one full GC runs, so
 * the resident set returns to its resting size once the work is done. The collection pauses the event loop (tens of
 * milliseconds per 100 MiB of heap), which is why it waits for a quiet server.
 */
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

export interface IdleGcOptions {
  /** How often utilization is sampled (ms). */
  intervalMs?: number;
  /** A sample at or above this utilization (0–1) counts as busy. */
  busyAbove?: number;
  /** How long utilization must stay below `busyAbove` after a busy sample (ms). */
  quietMs?: number;
  /** Heap growth since the last collection below which nothing runs (bytes). */
  minGrowthBytes?: number;
  /** Called after each collection (for logs and tests). */
  onCollect?(info: { beforeBytes: number; afterBytes: number; ms: number }): void;
  /** The heap in use (default `process.memoryUsage().heapUsed`) and the collection (default the engine's gc). */
  heapUsed?(): number;
  collect?(): void;
}

/** The engine's `gc()`, exposed at run time (the same as starting node with `--expose-gc`). */
export function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

/** Start watching; returns a function that stops it. */
export function startIdleGc(opts: IdleGcOptions = {}): () => void {
  const intervalMs = opts.intervalMs ?? 500;
  const busyAbove = opts.busyAbove ?? 0.2;
  const quietMs = opts.quietMs ?? 3000;
  const minGrowth = opts.minGrowthBytes ?? 16 * 1024 * 1024;
  const gc = opts.collect ?? exposeGc();
  const heapUsed = opts.heapUsed ?? (() => process.memoryUsage().heapUsed);
  let last = performance.eventLoopUtilization();
  let busySeen = false;
  let quietSince = 0;
  let baseline = heapUsed();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const t = performance.now();
    if (utilization >= busyAbove) {
      busySeen = true;
      quietSince = 0;
      return;
    }
    if (!busySeen) return;
    if (quietSince === 0) quietSince = t;
    if (t - quietSince < quietMs) return;
    busySeen = false;
    quietSince = 0;
    const before = heapUsed();
    if (before - baseline < minGrowth) return;
    gc();
    const after = heapUsed();
    baseline = after;
    // The collection's own pause is not work: the next sample starts after it.
    last = performance.eventLoopUtilization();
    opts.onCollect?.({ beforeBytes: before, afterBytes: after, ms: performance.now() - t });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
