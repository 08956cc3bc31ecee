/** Browser-side measuring for the editor benchmark: frame times (requestAnimationFrame deltas), panning, zooming. */
import type { Page } from "@playwright/test";

interface FrameStats {
  frames: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  fps: number;
  over33: number;
}

function stats(deltas: number[]): FrameStats {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const total = deltas.reduce((a, b) => a + b, 0);
  return {
    frames: deltas.length,
    medianMs: round(at(0.5)),
    p95Ms: round(at(0.95)),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    fps: round(total > 0 ? (deltas.length * 1000) / total : 0),
    over33: deltas.filter((d) => d > 33.4).length,
  };
}
const round = (n: number) => Math.round(n * 10) / 10;

export async function waitForHealth(base: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error("the app did not start");
    await new Promise((r) => setTimeout(r, 500));
  }
}

// Page scripts are strings: the TypeScript runner would otherwise add helpers the page does not have.
// Each recording has its own loop id: a loop from an earlier recording stops at its next frame instead of adding its
// deltas to this one.
const START_FRAMES = `(() => {
  const run = (window.__run = (window.__run || 0) + 1);
  window.__frames = [];
  window.__stop = false;
  let last = performance.now();
  const loop = (t) => {
    if (window.__run !== run || window.__stop) return;
    window.__frames.push(t - last);
    last = t;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
})()`;
const STOP_FRAMES = `(() => { window.__stop = true; return window.__frames.slice(1); })()`;

async function startFrames(page: Page) {
  await page.evaluate(START_FRAMES);
}

async function stopFrames(page: Page): Promise<number[]> {
  return (await page.evaluate(STOP_FRAMES)) as number[];
}

/** A point on the empty pane (not on a node, edge label, minimap or controls), to drag from. */
async function panePoint(page: Page): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId("editor-canvas").boundingBox())!;
  const point = (await page.evaluate(`(() => {
    const b = ${JSON.stringify(box)};
    for (let y = b.y + 40; y < b.y + b.height - 40; y += 23) {
      for (let x = b.x + 60; x < b.x + b.width - 220; x += 29) {
        const el = document.elementFromPoint(x, y);
        if (el && el.closest(".react-flow__node, .react-flow__edge, .react-flow__minimap, .react-flow__controls, [data-testid=edge-label]")) continue;
        if (el && el.closest(".react-flow__pane")) return { x, y };
      }
    }
    return null;
  })()`)) as { x: number; y: number } | null;
  return point ?? { x: box.x + 30, y: box.y + 30 };
}

export async function pan(page: Page, seconds: number) {
  const start = await panePoint(page);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  const until = Date.now() + seconds * 1000;
  let i = 0;
  while (Date.now() < until) {
    const a = i / 12;
    await page.mouse.move(start.x + Math.cos(a) * 180 - 180, start.y + Math.sin(a) * 120);
    i++;
  }
  await page.mouse.up();
}

/** Wheel zoom in and out around the canvas centre (`step`: wheel delta, smaller = less zoom per event). */
export async function zoom(page: Page, seconds: number, step = 90) {
  const box = (await page.getByTestId("editor-canvas").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const until = Date.now() + seconds * 1000;
  let i = 0;
  while (Date.now() < until) {
    await page.mouse.wheel(0, Math.floor(i / 10) % 2 === 0 ? -step : step);
    await page.waitForTimeout(16);
    i++;
  }
}

type Metrics = Record<string, number>;
const sessions = new WeakMap<Page, Promise<{ send(method: string): Promise<unknown> }>>();

/** Chromium's cumulative main-thread durations (seconds): script, style, layout, all tasks. */
export async function performanceMetrics(page: Page): Promise<Metrics> {
  let session = sessions.get(page);
  if (!session) {
    session = page
      .context()
      .newCDPSession(page)
      .then(async (s) => {
        await s.send("Performance.enable");
        return s as unknown as { send(method: string): Promise<unknown> };
      });
    sessions.set(page, session);
  }
  const { metrics } = (await (await session).send("Performance.getMetrics")) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** Runs `action` while recording frame times; prints the figures and where the main thread spent its time. */
export async function measure(page: Page, label: string, action: () => Promise<void>): Promise<FrameStats & { shown: string }> {
  const mounted = await page.locator(".react-flow__node").count();
  const overview = (await page.getByTestId("editor-canvas").getAttribute("data-lod")) === "low";
  const shown = overview ? "overview canvas" : `${mounted} DOM nodes`;
  const before = await performanceMetrics(page);
  const started = performance.now();
  await startFrames(page);
  await action();
  const s = stats(await stopFrames(page));
  const wall = performance.now() - started;
  const after = await performanceMetrics(page);
  const d = (k: string) => Math.round(((after[k] ?? 0) - (before[k] ?? 0)) * 1000);
  const busy = d("TaskDuration");
  const other = busy - d("ScriptDuration") - d("RecalcStyleDuration") - d("LayoutDuration");
  const line = `  ${label.padEnd(20)} ${shown.padStart(15)}  frames ${String(s.frames).padStart(4)}  median ${s.medianMs} ms  p95 ${s.p95Ms} ms  max ${s.maxMs} ms  ${s.fps} fps  >33ms: ${s.over33}`;
  console.log(line);
  console.log(
    `  ${"".padEnd(20)} main thread busy ${busy} of ${Math.round(wall)} ms: script ${d("ScriptDuration")}, style ${d("RecalcStyleDuration")}, layout ${d("LayoutDuration")}, paint and other ${other}`,
  );
  return { ...s, shown };
}
