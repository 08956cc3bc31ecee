/**
 * Where a process's CPU time went, from a V8 CPU profile (`node --cpu-prof`, e.g. the black-box app run with
 * `BENCH_APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`): self time by area (a package under node_modules,
 * Node's internals, the app's bundled chunks, GC, idle) and the functions with the most self time.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 40] [--from <s> --to <s>]
 */
import fs from "node:fs";
import { parseArgs } from "node:util";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  options: { top: { type: "string" }, from: { type: "string" }, to: { type: "string" } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file) throw new Error("usage: profile-summary <file.cpuprofile> [--top N] [--from s --to s]");
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** The area a frame's code belongs to. */
function area(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  if (url.includes("/.next/")) return ".next (bundled app code and Next.js)";
  const m = /\/(server|app|scripts|shared|components)\//.exec(url);
  return m ? `${m[1]}/ (source)` : url;
}

const from = values.from ? Number(values.from) * 1e6 : 0;
const to = values.to ? Number(values.to) * 1e6 : Infinity;
const selfTime = new Map<number, number>();
let t = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i]!;
  if (t < from || t > to) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfTime.set(profile.samples[i]!, (selfTime.get(profile.samples[i]!) ?? 0) + dt);
}
const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
const areas = new Map<string, number>();
const fns = new Map<string, number>();
for (const [id, us] of selfTime) {
  const n = byId.get(id)!;
  const { functionName, url, lineNumber } = n.callFrame;
  const a = area(url, functionName);
  areas.set(a, (areas.get(a) ?? 0) + us);
  const key = `${functionName || "(anonymous)"}  ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/\.next\//, ".next/")}:${lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
}
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%`;
const busy = total - (areas.get("(idle)") ?? 0);
console.log(`profile ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s; sampled ${(total / 1e6).toFixed(2)} s; busy ${(busy / 1e6).toFixed(2)} s`);
console.log("\nself time by area");
for (const [a, us] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`${ms(us)}  ${a}`);
console.log("\nself time by function");
for (const [f, us] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, Number(values.top ?? 40))) console.log(`${ms(us)}  ${f}`);
