/**
 * `npm run bench`: the runtime's own cost, side by side with the alternatives, against the scripted
 * OpenAI-compatible server on loopback answering with no delay. Prints a table (median and p95 over repeated runs)
 * and rewrites its sections of bench/RESULTS.md with the figures and the machine they ran on: `bench-in-process`
 * (scenarios 1–7, the runtime in this process) and `bench-black-box` (scenario 8, the app under `npm start` driven
 * over HTTP from here; also `npm run bench:black-box` alone), each only when one of its scenarios ran. Sections other
 * benches write there are kept (bench/results-file.ts). Asserts nothing.
 *
 *   npm run bench [-- --quick] [-- --only <scenario>[,<scenario>]]
 *   scenarios: step-overhead, ttft, fan-out, concurrency, sse-fan-out, worker-scale, step-overhead-pg, black-box (or 1–8)
 *   DATABASE_URL=…  runs scenarios on another database (default: a fresh SQLite file per scenario)
 *   BENCH_POSTGRES_URL=postgres://…  the server worker-scale creates its databases on (skipped without one)
 */
import { execSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { blackBox } from "./black-box-scenario";
import { concurrency } from "./concurrency";
import { fanOut } from "./fan-out";
import { startFakeServer, type FakeServer, type Options, type Row, type ScenarioResult } from "./harness";
import { RESULTS_FILE, RESULTS_HEADER, table, writeSections } from "./results-file";
import { sseFanOut } from "./sse-fan-out";
import { stepOverhead } from "./step-overhead";
import { stepOverheadPostgres } from "./step-overhead-pg";
import { crossScenarioRows } from "./goal-rows";
import { ttft } from "./ttft";
import { workerScale } from "./worker-scale";

const SCENARIOS: [string, (fake: FakeServer, opts: Options) => Promise<ScenarioResult>][] = [
  ["step-overhead", stepOverhead],
  ["ttft", ttft],
  ["fan-out", fanOut],
  ["concurrency", concurrency],
  ["sse-fan-out", sseFanOut],
  ["worker-scale", workerScale],
  ["step-overhead-pg", stepOverheadPostgres],
  ["black-box", blackBox],
];
const BLACK_BOX = new Set(["black-box"]);
/**
 * The per-step scenarios run first, one after the other (the rest in their numbered order), so that the SQLite and
 * the PostgreSQL step are measured alike. Run last, after the in-process load of scenarios 2–5 (their heap, their JIT
 * state), the PostgreSQL step read 5.79 ms (4.37 ms of CPU) where a run the same hour without them read 4.09 ms
 * (2.98 ms): a disadvantage the SQLite step, run first, did not have.
 */
const runOrder = (name: string) => (name === "step-overhead" ? 0 : name === "step-overhead-pg" ? 1 : 2 + SCENARIOS.findIndex(([n]) => n === name));

function machine(): string[] {
  const cpus = os.cpus();
  let commit = "unknown";
  try {
    commit = execSync("git rev-parse --short HEAD", { cwd: path.resolve(import.meta.dirname, ".."), stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {}
  return [
    `- CPU: ${cpus[0]?.model ?? "unknown"}, ${cpus.length} logical cores`,
    `- Memory: ${Math.round(os.totalmem() / 1024 ** 3)} GiB; ${os.type()} ${os.release()} (${os.arch()})`,
    `- Node.js ${process.version}`,
    `- Load average at start (1/5/15 min): ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`,
    `- Commit ${commit}; run at ${new Date().toISOString()}`,
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean" }, only: { type: "string" } }, strict: true });
  const opts: Options = { quick: values.quick === true };
  const wanted = values.only?.split(",").map((s) => s.trim());
  const selected = SCENARIOS.filter(([name], i) => !wanted || wanted.includes(name) || wanted.includes(String(i + 1))).sort(
    ([a], [b]) => runOrder(a) - runOrder(b),
  );
  if (selected.length === 0) throw new Error(`--only: no scenario named ${values.only}; pick from ${SCENARIOS.map(([n]) => n).join(", ")}`);

  const info = machine();
  console.log(["Benchmarks (scripted server on loopback, no model delay)", ...info].join("\n"));
  const groups = { inProcess: { rows: [] as Row[], notes: [] as string[], ran: false }, blackBox: { rows: [] as Row[], notes: [] as string[], ran: false } };
  const fake = await startFakeServer();
  try {
    for (const [name, run] of selected) {
      console.log(`\n▶ ${name}${opts.quick ? " (quick)" : ""} …`);
      const t0 = performance.now();
      const group = BLACK_BOX.has(name) ? groups.blackBox : groups.inProcess;
      group.ran = true;
      const { notes } = group;
      try {
        const result = await run(fake, opts);
        group.rows.push(...result.rows);
        notes.push(...result.notes);
        console.log(table(result.rows).join("\n"));
        for (const n of result.notes) console.log(`  ${n}`);
      } catch (err) {
        const message = `${name} failed: ${(err as Error).stack ?? String(err)}`;
        console.error(message);
        notes.push(`${name} FAILED: ${(err as Error).message}`);
      }
      console.log(`  (${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await fake.close();
  }
  const goals = crossScenarioRows(groups.inProcess.rows);
  if (goals.length > 0) {
    groups.inProcess.rows.push(...goals);
    console.log(`\n${table(goals).join("\n")}`);
  }

  const command = "`npm run bench" + (process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : "") + "`";
  const machineLines = [...info, `- Load average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(" / ")}`];
  const section = (title: string, about: string[], g: { rows: Row[]; notes: string[] }) =>
    [`## ${title}`, "", ...about, "", `Generated by ${command}; do not edit by hand.`, "", "### Machine", "", ...machineLines, "", "### Results", "", ...table(g.rows), "", "### Notes", "", ...g.notes.map((n) => `- ${n}`), ""].join("\n");
  const sections = [];
  if (groups.inProcess.ran) {
    sections.push({
      name: "bench-in-process",
      body: section("In process", ["The runtime and the REST API in the bench's own process (scenarios 1–7)."], groups.inProcess),
    });
  }
  if (groups.blackBox.ran) {
    sections.push({
      name: "bench-black-box",
      body: section(
        "Black box: the app as a user runs it",
        [
          "The app started as `npm start` starts it (its own process group, a fresh SQLite file), driven over REST and SSE from",
          "the bench's process only; the bare `openai` SDK baselines run in the same run on the same scripted server",
          "(scenario 8; `npm run bench:black-box` runs it alone). Times are what a client sees, every wait included.",
        ],
        groups.blackBox,
      ),
    });
  }
  writeSections(RESULTS_HEADER, sections, "bench-in-process");
  console.log(`\nWrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
