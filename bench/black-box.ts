/**
 * `npm run bench:black-box`: the black-box scenario of `npm run bench` on its own (bench/black-box-scenario.ts), with
 * its sizes as options. Prints the figures; writes nothing.
 *
 *   npm run bench:black-box [-- --threads 200 --steps 3 --children 100 --rounds 3 --alone 20 --quick] [-- --fan-out-only]
 *                           [-- --env RUNTIME_CONCURRENCY=256 --env …]
 *   --fan-out-only: only the fan-out of --children and its baseline, --rounds times (no N × K load, no memory figures)
 *   BENCH_BLACKBOX_PORT (the app's port; default a free one), BENCH_LLM_PORT (the scripted server's),
 *   BENCH_APP_ROOT (start another checkout's app instead, e.g. an older build to compare with),
 *   BENCH_APP_NODE_ARGS (node options for the app, run without npm in front, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`)
 */
import { parseArgs } from "node:util";
import { blackBoxDefaults, blackBoxRun } from "./black-box-scenario";
import { startFakeServer } from "./harness";
import { table } from "./results-file";

const { values } = parseArgs({
  options: {
    threads: { type: "string" },
    steps: { type: "string" },
    children: { type: "string" },
    rounds: { type: "string" },
    alone: { type: "string" },
    quick: { type: "boolean" },
    "fan-out-only": { type: "boolean" },
    env: { type: "string", multiple: true },
  },
  strict: true,
});
const d = blackBoxDefaults(values.quick === true);
const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
const appEnv = Object.fromEntries((values.env ?? []).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));

const fake = await startFakeServer();
try {
  const result = await blackBoxRun(fake, {
    threads: num(values.threads, d.threads),
    steps: num(values.steps, d.steps),
    children: num(values.children, d.children),
    rounds: num(values.rounds, d.rounds),
    alone: num(values.alone, d.alone),
    appEnv,
    port: process.env.BENCH_BLACKBOX_PORT ? Number(process.env.BENCH_BLACKBOX_PORT) : undefined,
    log: (line) => console.log(line),
    fanOutOnly: values["fan-out-only"] === true,
  });
  console.log(["", ...table(result.rows), "", ...result.notes.map((n) => `- ${n}`)].join("\n"));
} finally {
  await fake.close();
}
