/** Browser-side measuring for the inspector benchmark: open time, frame gaps while scrolling, live update latency. */
import type { Page } from "@playwright/test";

export interface Gaps {
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  fps: number;
  over33: number;
}

function stats(deltas: number[]): Gaps {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const total = deltas.reduce((a, b) => a + b, 0);
  return {
    frames: deltas.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
    fps: total > 0 ? (deltas.length * 1000) / total : 0,
    over33: deltas.filter((d) => d > 33.4).length,
  };
}

const TREE = `document.querySelector('[data-testid="inspector-tree"]')`;

export interface OpenTimes {
  /** Navigation start → the tree holds all nodes and its first rows are drawn (page clock). */
  total: number;
  /** The page's HTML (which carries the tree) received, DOMContentLoaded, the live feed's own snapshot received (navigation start = 0). */
  html: number;
  dom: number;
  snapshot: number;
}

/** Open the inspector and time it: navigation start → the tree holds all `count` nodes and its first rows are drawn. */
export async function openInspector(page: Page, base: string, rootId: string, count: number): Promise<OpenTimes> {
  await page.goto("about:blank");
  await page.goto(`${base}/threads/${rootId}?view=inspector`, { waitUntil: "commit" });
  const drawn = (await (
    await page.waitForFunction(
      `(() => { const t = ${TREE}; return !!t && t.getAttribute("data-count") === "${count}" && t.querySelectorAll('[data-testid="tree-node"]').length > 5 && performance.now(); })()`,
      undefined,
      { polling: "raf", timeout: 60_000 },
    )
  ).jsonValue()) as number;
  // The live feed's own snapshot follows (the page came with the tree): note when it took over.
  await page.waitForFunction(`performance.getEntriesByName("inspector-snapshot").length > 0`, undefined, { timeout: 15_000 }).catch(() => undefined);
  return (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const snap = performance.getEntriesByName("inspector-snapshot")[0];
    return { total: ${drawn}, html: nav.responseEnd, dom: nav.domContentLoadedEventEnd, snapshot: snap ? snap.startTime : NaN };
  })()`)) as OpenTimes;
}

// Page scripts are strings: the TypeScript runner would otherwise add helpers the page does not have.
const FRAMES = (frames: number, step: number) => `new Promise((resolve) => {
  const el = ${TREE};
  const deltas = [];
  let dir = 1;
  let last = performance.now();
  const loop = (t) => {
    deltas.push(t - last);
    last = t;
    if (${step} > 0) {
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) dir = -1;
      else if (el.scrollTop <= 0) dir = 1;
      el.scrollTop += dir * ${step};
    }
    if (deltas.length > ${frames}) resolve(deltas.slice(1));
    else requestAnimationFrame(loop);
  };
  requestAnimationFrame((t) => { last = t; requestAnimationFrame(loop); });
})`;

/** Frame gaps over `frames` frames while the tree scrolls `step` px per frame (bouncing at the ends), with `during` run meanwhile. */
export async function scrollFrames(page: Page, step: number, frames: number, during?: () => Promise<void>): Promise<Gaps> {
  const measuring = page.evaluate(FRAMES(frames, step)) as Promise<number[]>;
  await during?.();
  return stats(await measuring);
}

/** Frame gaps while `act` runs, without scrolling. */
export async function frameGaps(page: Page, act: () => Promise<void>): Promise<Gaps> {
  const measuring = page.evaluate(FRAMES(1_000_000, 0).replace("deltas.length > 1000000", "window.__stopFrames")) as Promise<number[]>;
  await act();
  await page.evaluate("window.__stopFrames = true");
  const deltas = await measuring;
  await page.evaluate("window.__stopFrames = false");
  return stats(deltas);
}

/**
 * Wall-clock time from just before `act` until the row of `threadId` shows `terminated`: the row is scrolled into
 * view first (it is the `row`-th of the list, 52 px each), and a MutationObserver notes when its status changes.
 */
export async function liveLatency(page: Page, threadId: string, row: number, act: () => Promise<void>): Promise<number> {
  const sel = `[data-testid="tree-node"][data-thread="${threadId}"]`;
  await page.evaluate(`(${TREE}).scrollTop = ${Math.max(0, (row + 4) * 52 - 200)}`);
  await page.waitForSelector(sel, { timeout: 10_000 });
  const seen = page.evaluate(`new Promise((resolve) => {
    const done = () => document.querySelector('${sel}')?.getAttribute("data-status") === "terminated";
    const obs = new MutationObserver(() => { if (done()) { obs.disconnect(); resolve(Date.now()); } });
    obs.observe(${TREE}, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
  })`) as Promise<number>;
  await page.waitForTimeout(50);
  const t0 = Date.now();
  await act();
  return (await seen) - t0;
}
