/** The `npm run bench:editor` section of bench/RESULTS.md: the goals, the figures, the machine, the full output. */
import os from "node:os";
import path from "node:path";
import { RESULTS_FILE, RESULTS_HEADER, writeSections } from "./results-file";

export interface EditorFigures {
  startedAt: Date;
  definitions: number;
  nodes: number;
  firstLayoutMs: number;
  elkMs: number;
  frames: Array<{ view: string; label: string; shown: string; frames: number; medianMs: number; p95Ms: number; maxMs: number; fps: number; over33: number }>;
  /** Everything the bench printed. */
  output: string[];
}

const GOAL_LAYOUT_MS = 1000;
const GOAL_FPS = 60;
/** A run holds 60 fps when it averages at least 57 (rAF deltas jitter around 16.7 ms). */
const meets60 = (fps: number) => fps >= 57;

export function editorSectionBody(f: EditorFigures): string {
  const moving = f.frames.filter((r) => !r.label.startsWith("idle"));
  const worst = moving.reduce((a, r) => Math.min(a, r.fps), Infinity);
  const cpus = os.cpus();
  return [
    "## Graph editor (`npm run bench:editor`)",
    "",
    `Run ${f.startedAt.toISOString()} on ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, Node ${process.version}, headless Chromium (software rendering, no GPU), load average at end ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}. ` +
      `${f.definitions} generated definitions, ${f.nodes} graph nodes; a production build served by \`scripts/start.ts\`.`,
    "",
    "| goal | figure | met |",
    "| --- | --- | --- |",
    `| first layout < ${GOAL_LAYOUT_MS} ms | ${f.firstLayoutMs} ms (ELK computing ${f.elkMs} ms; cold web worker) | ${f.firstLayoutMs < GOAL_LAYOUT_MS ? "yes" : "no"} |`,
    `| pan and zoom at ${GOAL_FPS} fps | lowest average of the pan/zoom runs: ${Number.isFinite(worst) ? worst : "?"} fps (median frame ${Math.max(...moving.map((r) => r.medianMs))} ms at worst) | ${moving.length > 0 && moving.every((r) => meets60(r.fps)) ? "yes" : "no"} |`,
    "",
    "| view | action | drawn as | frames | median ms | p95 ms | max ms | fps | frames > 33 ms |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...f.frames.map((r) => `| ${r.view} | ${r.label} | ${r.shown} | ${r.frames} | ${r.medianMs} | ${r.p95Ms} | ${r.maxMs} | ${r.fps} | ${r.over33} |`),
    "",
    "Frame times are requestAnimationFrame deltas (16.7 ms = 60 fps). The full output of the run:",
    "",
    "```text",
    ...f.output,
    "```",
  ].join("\n");
}

/** Replaces (or adds) the section `bench-editor` of bench/RESULTS.md; returns the file's path relative to the working directory. */
export function writeEditorResults(f: EditorFigures): string {
  writeSections(RESULTS_HEADER, [{ name: "bench-editor", body: editorSectionBody(f) }]);
  return path.relative(process.cwd(), RESULTS_FILE);
}
