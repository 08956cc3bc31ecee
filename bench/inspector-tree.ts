/**
 * Benchmark of the inspector on a big subagent tree: a root with 200 children and a chain 5 levels deep (205 threads,
 * seeded), served by the production build. Prints the server's tree read time, the page's open time, frame gaps
 * while scrolling the tree in headless Chromium, how long a live status change takes to show, and frame gaps while
 * a burst of 50 changes arrives. Prints figures with the load average; asserts nothing.
 *
 *   npm run bench:inspector          (BENCH_PORT=3170, BENCH_LLM_PORT=4170, NEXT_DIST_DIR, CHROMIUM_PATH;
 *                                     BENCH_TRACE=file.json / BENCH_TRACE_BURST=file.json record Chrome traces of the
 *                                     scrolls (40 px/frame; 200 px/frame in file.fast.json) / of the burst)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { buildIfNeeded } from "../scripts/build-if-needed";
import { startFakeLlm } from "../scripts/fake-llm/server";
import { waitForHealth } from "./editor-graph-browser";
import { frameGaps, liveLatency, openInspector, scrollFrames, type Gaps } from "./inspector-tree-browser";
import { linkBigTree } from "./inspector-tree-seed";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.BENCH_PORT ?? 3170);
const base = `http://127.0.0.1:${port}`;
const WIDE = 200;
const DEEP = 4;

async function createThread(agent: string): Promise<string> {
  const res = await fetch(`${base}/api/threads`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ agent_id: agent }) });
  if (res.status !== 201) throw new Error(`create thread: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { threadId: string }).threadId;
}

async function terminate(id: string) {
  const res = await fetch(`${base}/api/threads/${id}/terminate`, { method: "POST" });
  if (!res.ok) throw new Error(`terminate: ${res.status} ${await res.text()}`);
}

const ms = (n: number) => `${Math.round(n)} ms`;
const gaps = (g: Gaps) =>
  `frame gaps p50 ${g.p50.toFixed(1)} ms, p95 ${g.p95.toFixed(1)} ms, p99 ${g.p99.toFixed(1)} ms, max ${g.max.toFixed(1)} ms (${g.frames} frames, ${g.fps.toFixed(0)} fps, ${g.over33} over 33 ms)`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-inspector-"));
  const agentsDir = path.join(tmp, "agents");
  const dataDir = path.join(tmp, "data");
  fs.cpSync(path.join(root, "agents"), agentsDir, { recursive: true });
  fs.cpSync(path.join(root, "e2e/fixtures/agents"), agentsDir, { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true });
  buildIfNeeded(root);
  const fake = await startFakeLlm({ port: Number(process.env.BENCH_LLM_PORT ?? 4170) });
  const server = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: root,
    stdio: "ignore",
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      AGENTS_DIR: agentsDir,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "bench",
      WATCH_DEFINITIONS: "0",
      PORT: String(port),
      HOST: "127.0.0.1",
    },
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    await waitForHealth(base, 180_000);
    const rootId = await createThread("insp_lead");
    const wide: string[] = [];
    for (let i = 0; i < WIDE; i += 20) wide.push(...(await Promise.all(Array.from({ length: Math.min(20, WIDE - i) }, () => createThread("fact_check")))));
    const deep: string[] = [];
    for (let i = 0; i < DEEP; i++) deep.push(await createThread("fact_check"));
    linkBigTree(path.join(dataDir, "app.db"), { root: rootId, wide, deep });
    const count = 1 + WIDE + DEEP;
    console.log(`Inspector benchmark: ${count} threads (${WIDE} children, ${DEEP + 1} levels), load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}, ${os.cpus().length} cores`);

    const reads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/api/trpc/inspector.tree?input=${encodeURIComponent(JSON.stringify({ threadId: rootId }))}`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`inspector.tree: ${res.status}`);
      reads.push(performance.now() - t);
    }
    console.log(`server: inspector.tree over HTTP  first ${ms(reads[0]!)}, median of the next 4 ${ms(median(reads.slice(1)))}`);

    const page: Page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    for (let i = 0; i < 4; i++) {
      const o = await openInspector(page, base, rootId, count);
      console.log(
        `open #${i + 1}${i === 0 ? " (cold)" : ""}: ${ms(o.total)} from navigation to ${count} nodes in the tree, first rows drawn (HTML at ${ms(o.html)}, DOMContentLoaded ${ms(o.dom)}, live snapshot ${ms(o.snapshot)})`,
      );
    }

    await page.waitForTimeout(500);
    console.log(`idle, 1 s:                    ${gaps(await frameGaps(page, () => page.waitForTimeout(1000)))}`);
    const trace = process.env.BENCH_TRACE;
    if (trace) await browser.startTracing(page, { path: trace, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
    console.log(`scroll 40 px/frame, 4 s:      ${gaps(await scrollFrames(page, 40, 240))}`);
    if (trace) {
      await browser.stopTracing();
      console.log(`(Chrome traces of the scrolls written to ${trace} and *.fast.json)`);
    }
    if (trace) await browser.startTracing(page, { path: trace.replace(/(\.json)?$/, ".fast.json"), categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
    console.log(`scroll 200 px/frame, 2 s:     ${gaps(await scrollFrames(page, 200, 120))}`);
    if (trace) await browser.stopTracing();

    // Live updates: terminate a child that is in view and time until its row says so (MutationObserver, wall clock).
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const index = 20 + i * 17;
      latencies.push(await liveLatency(page, wide[index]!, index + 1, () => terminate(wide[index]!)));
    }
    console.log(`live update (terminate over REST → row shows "terminated"): median ${ms(median(latencies))}, max ${ms(Math.max(...latencies))} over ${latencies.length}`);

    // A burst: 50 children terminated at once while the tree scrolls.
    const burst = wide.filter((_, i) => i % 3 === 1).slice(0, 50);
    const t0 = Date.now();
    const burstTrace = process.env.BENCH_TRACE_BURST;
    if (burstTrace) await browser.startTracing(page, { path: burstTrace, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
    const during = await scrollFrames(page, 40, 120, () => Promise.all(burst.map(terminate)).then(() => undefined));
    if (burstTrace) await browser.stopTracing();
    console.log(`scroll during a burst of 50 live changes: ${gaps(during)}; burst sent in ${ms(Date.now() - t0)}`);
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    console.log("(frame gaps are requestAnimationFrame deltas; 16.7 ms = 60 fps)");
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await fake.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
