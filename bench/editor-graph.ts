/**
 * Benchmark of the graph editor on a generated registry of ~500 definitions: server view time and size, layout time
 * (elkjs, in the page's web worker), and frame times while panning and zooming in headless Chromium. Prints figures
 * and writes them into their own section of bench/RESULTS.md (replaced on each run; `npm run bench` keeps it).
 * Asserts nothing.
 *
 *   npx tsx bench/editor-graph.ts            (BENCH_PORT=3160, NEXT_DIST_DIR=<build folder>, CHROMIUM_PATH=...)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { buildIfNeeded } from "../scripts/build-if-needed";
import { measure, pan, waitForHealth, zoom } from "./editor-graph-browser";
import { writeLargeRegistry } from "./editor-graph-fixture";
import { writeEditorResults, type EditorFigures } from "./editor-graph-results";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.BENCH_PORT ?? 3160);
const base = `http://127.0.0.1:${port}`;

async function main() {
  const figures: EditorFigures = { startedAt: new Date(), definitions: 0, nodes: 0, firstLayoutMs: 0, elkMs: 0, frames: [], output: [] };
  const print = console.log;
  console.log = (...args: unknown[]) => {
    figures.output.push(args.map(String).join(" "));
    print(...args);
  };
  let view = "";
  const record = async (label: string, run: Promise<Awaited<ReturnType<typeof measure>>>) => figures.frames.push({ view, label, ...(await run) });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-editor-"));
  const agentsDir = path.join(tmp, "agents");
  const count = writeLargeRegistry(agentsDir);
  figures.definitions = count;
  buildIfNeeded(root);
  const server = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", AGENTS_DIR: agentsDir, DATA_DIR: path.join(tmp, "data"), DATABASE_URL: "", RUNTIME_WORKERS: "0", WATCH_DEFINITIONS: "0", PORT: String(port), HOST: "127.0.0.1" },
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const serverStart = performance.now();
    await waitForHealth(base, 180_000);
    console.log(`Editor benchmark: ${count} definitions generated in ${agentsDir}`);
    console.log(`app ready (registry loaded) in ${Math.round(performance.now() - serverStart)} ms`);
    // String predicates of waitForFunction are evaluated with eval, which the app's CSP forbids after a reload.
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, bypassCSP: true });
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const res = await page.request.get(`${base}/api/trpc/editor.view`);
      const body = await res.body();
      console.log(`editor.view (server: files as documents)  ${Math.round(performance.now() - t)} ms, ${Math.round(body.length / 1024)} KiB${i === 0 ? " (cold)" : ""}`);
    }
    const t0 = performance.now();
    await page.goto(`${base}/editor`);
    const canvas = page.getByTestId("editor-canvas");
    await canvas.locator(".react-flow__node").first().waitFor({ state: "attached", timeout: 60_000 });
    await page.waitForFunction(`Number(document.querySelector("[data-testid=editor-canvas]")?.getAttribute("data-layout-count")) >= 1`, undefined, { timeout: 60_000 });
    const firstLayout = Number(await canvas.getAttribute("data-layout-ms"));
    const nodes = Number(await canvas.getAttribute("data-node-count"));
    figures.nodes = nodes;
    figures.firstLayoutMs = firstLayout;
    figures.elkMs = Number(await canvas.getAttribute("data-layout-elk-ms"));
    console.log(`first layout of ${nodes} nodes (elkjs, web worker, cold, ${await canvas.getAttribute("data-layout-source")}): ${firstLayout} ms, of which ELK computing ${await canvas.getAttribute("data-layout-elk-ms")} ms (the rest: waiting for the worker to load ELK); page open → graph shown: ${Math.round(performance.now() - t0)} ms`);
    const relayouts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const before = Number(await canvas.getAttribute("data-layout-count"));
      await page.getByRole("button", { name: i % 2 === 0 ? "Collapse all" : "Expand all" }).click();
      await page.waitForFunction(`Number(document.querySelector("[data-testid=editor-canvas]")?.getAttribute("data-layout-count")) > ${before}`);
      relayouts.push(`${await canvas.getAttribute("data-layout-ms")}${(await canvas.getAttribute("data-layout-source")) === "cache" ? " (cached)" : ""}`);
    }
    const before = Number(await canvas.getAttribute("data-layout-count"));
    await page.getByRole("button", { name: "Expand all" }).click();
    await page.waitForFunction(`Number(document.querySelector("[data-testid=editor-canvas]")?.getAttribute("data-layout-count")) > ${before}`);
    const full = `${await canvas.getAttribute("data-layout-ms")} ms (${await canvas.getAttribute("data-layout-source")})`;
    console.log(`re-layouts (warm; collapse all / expand all / collapse all): ${relayouts.join(", ")} ms; full graph again: ${full}`);
    const t1 = performance.now();
    await page.reload();
    await page.waitForFunction(`Number(document.querySelector("[data-testid=editor-canvas]")?.getAttribute("data-layout-count")) >= 1`, undefined, { timeout: 60_000 });
    console.log(`re-open (reload, layout from the cache: ${await canvas.getAttribute("data-layout-source")}): layout ${await canvas.getAttribute("data-layout-ms")} ms; page open → graph shown: ${Math.round(performance.now() - t1)} ms`);

    const zoomNow = async () => Number(await canvas.getAttribute("data-zoom")).toFixed(2);
    await page.getByRole("button", { name: "Fit View" }).click();
    await page.waitForTimeout(500);
    view = `whole graph (fit view, zoom ${await zoomNow()})`;
    console.log(`-- whole graph in view (fit view, zoom ${await zoomNow()}: the overview)`);
    await record("idle (1 s)", measure(page, "idle (1 s)", () => page.waitForTimeout(1000)));
    await record("pan (3 s)", measure(page, "pan (3 s)", () => pan(page, 3)));
    await record("zoom in/out (3 s)", measure(page, "zoom in/out (3 s)", () => zoom(page, 3)));
    await page.getByRole("button", { name: "Fit View" }).click();
    for (let i = 0; i < 6; i++) await page.getByRole("button", { name: "Zoom In" }).click();
    await page.waitForTimeout(500);
    view = `part of the graph (zoom ${await zoomNow()})`;
    console.log(`-- part of the graph in view (zoom ${await zoomNow()}: the overview)`);
    await record("pan (3 s)", measure(page, "pan (3 s)", () => pan(page, 3)));
    await record("zoom in/out (3 s)", measure(page, "zoom in/out (3 s)", () => zoom(page, 3)));
    // Typical editing zoom: Find centres a node at zoom 1, where nodes show in full (text, handles, labels).
    await page.getByLabel("Find a node").fill("p_40");
    await page.getByRole("button", { name: "Find" }).click();
    await page.waitForTimeout(800);
    view = `editing zoom (zoom ${await zoomNow()})`;
    console.log(`-- typical editing zoom (zoom ${await zoomNow()}: full detail)`);
    await record("idle (1 s)", measure(page, "idle (1 s)", () => page.waitForTimeout(1000)));
    await record("pan (3 s)", measure(page, "pan (3 s)", () => pan(page, 3)));
    await record("zoom in/out (3 s)", measure(page, "zoom in/out (3 s)", () => zoom(page, 3, 30)));
    console.log("(frame times are requestAnimationFrame deltas; 16.7 ms = 60 fps)");
    console.log = print;
    console.log(`Wrote ${writeEditorResults(figures)}`);
  } finally {
    console.log = print;
    await browser.close();
    server.kill("SIGTERM");
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
