/**
 * `npm run chaos -- --runs N`: the crash soak. Each run starts the app as a real process on a fresh database, starts a
 * three-level subagent run against the scripted OpenAI-compatible server, SIGKILLs the app at a random moment, starts
 * it again on the same database and waits for the run to finish. Then it checks the invariants and, at the end, prints
 * a table of them over all runs. Asserts nothing (tests stay deterministic; this prints figures, like the benchmarks).
 *
 * The run: an `ai_human` root calls a blocking `dual_ai` manager, which spawns two non-blocking `dual_ai` leaves; each
 * leaf calls three side-effect tools in one step (`side_effect` twice, safe to repeat; `once_only`, `onInterrupt:
 * 'fail'`), each writing a ledger line outside the database before it works for `--tool-ms`.
 *
 *   npm run chaos -- --runs 20 [--tool-ms 300] [--timeout-ms 90000]
 *   TEST_DATABASE_URL=postgresql://…  runs it on PostgreSQL (a database per run)
 *   npm run chaos -- --postgres [--workers 3]   PostgreSQL with an API-only app and several worker processes: each
 *     run SIGKILLs one worker (one holding a thread) and the others take over; nothing is restarted. The server is
 *     TEST_DATABASE_URL or BENCH_POSTGRES_URL (a role that may create databases; one `studio_failover_chaos_…` per run).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startFakeLlm, type FakeLlm } from "../scripts/fake-llm/server";
import type { Rule } from "../scripts/fake-llm/script-schema";
import { ServerProcess } from "../tests/helpers/server-process";
import { WorkerCluster, type Deployment } from "./chaos-cluster";

const AGENTS = path.join(import.meta.dirname, "fixtures/chaos-agents");

/** The model's side of the run: every rule may match again (a request cut off by the kill is sent again). */
function script(ledger: string, toolMs: number): Rule[] {
  const effect = (name: string) => ({ name, arguments: { ledger, ms: toolMs } });
  return [
    { when: { system_contains: "chaos root", last_contains: "start" }, respond: { tool_calls: [{ name: "chaos_mid", arguments: { task: "Organise" } }] } },
    { when: { system_contains: "chaos root" }, respond: { content: "All done." } },
    { when: { system_contains: "chaos manager", last_contains: "Organise" }, respond: { tool_calls: [{ name: "chaos_leaf", arguments: { task: "Leaf one" } }, { name: "chaos_leaf", arguments: { task: "Leaf two" } }] } },
    { when: { system_contains: "chaos manager" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "managed" } }] } },
    { when: { system_contains: "chaos leaf", last_contains: "Leaf" }, respond: { tool_calls: [effect("side_effect"), effect("once_only"), effect("side_effect")] } },
    { when: { system_contains: "chaos leaf" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "dug" } }] } },
    { when: { system_contains: "chaos checker" }, respond: { tool_calls: [{ name: "finish_work", arguments: { result: "checked" } }] } },
  ];
}

/** Each thread's stored conversation (silent messages aside), as `role:tool name`. */
const EXPECTED = {
  root: ["user:", "assistant:", "tool:chaos_mid", "assistant:"],
  mid: ["user:", "assistant:", "tool:chaos_leaf", "tool:chaos_leaf", "assistant:", "tool:finish_work"],
  leaf: ["user:", "assistant:", "tool:side_effect", "tool:once_only", "tool:side_effect", "assistant:", "tool:finish_work"],
};

interface RunResult {
  killAtMs: number;
  finished: boolean;
  restartToFinishMs: number | null;
  /** Cluster runs: from the kill until another worker holds every thread the killed one held (or it settled). */
  takeoverMs: number | null;
  lost: number;
  duplicated: number;
  reordered: number;
  duplicatedChildren: number;
  stuckRunning: number;
  calls: number;
  executions: number;
  reruns: number;
  badRerunAttempts: number;
  onceOnlyRepeated: number;
  onceOnlyRefused: number;
  logRows: number;
  logInterrupted: number;
  modelRequests: number;
}

async function get(base: string, p: string): Promise<any> {
  const res = await fetch(`${base}${p}`);
  if (!res.ok) throw new Error(`GET ${p}: ${res.status}`);
  return res.json();
}

const messagesOf = async (base: string, id: string) => (await get(base, `/api/threads/${id}/messages?includeSilent=true&limit=1000`)).messages as any[];
const childrenOf = async (base: string, id: string) => (await get(base, `/api/threads?parent_id=${id}&limit=100`)).threads as any[];

/** The tree under the root: [root, manager(s), leaves]. */
async function tree(base: string, root: string) {
  const mids = await childrenOf(base, root);
  const leaves = (await Promise.all(mids.map((m) => childrenOf(base, m.id)))).flat();
  return { mids, leaves };
}

async function finishedRun(base: string, root: string): Promise<boolean> {
  const last = (await messagesOf(base, root)).at(-1);
  if (last?.content !== "All done.") return false;
  const { mids, leaves } = await tree(base, root);
  if (mids.length === 0 || leaves.length < 2) return false;
  for (const t of [...mids, ...leaves]) {
    const { thread } = await get(base, `/api/threads/${t.id}`);
    if (thread.status === "running") return false;
  }
  return true;
}

/** The tree's threads, statuses and conversations: printed for a run that did not finish. */
async function describeTree(base: string, root: string): Promise<string> {
  const { mids, leaves } = await tree(base, root);
  const lines: string[] = [];
  for (const id of [root, ...mids.map((m) => m.id), ...leaves.map((l) => l.id)]) {
    const { thread } = await get(base, `/api/threads/${id}`);
    const msgs = await messagesOf(base, id);
    lines.push(`  ${thread.agent_id} ${id} ${thread.status} ${thread.stop_reason ?? ""}: ${msgs.map((m) => `${m.role}:${m.name ?? ""}${m.silent ? "(silent)" : ""}${m.role === "tool" ? `[${String(m.content).slice(0, 120)}]` : ""}`).join(" ")}`);
  }
  return `not finished:\n${lines.join("\n")}`;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Compare a conversation with its expected shape: what is missing, repeated or out of order. */
function compare(actual: string[], expected: string[]): { lost: number; duplicated: number; reordered: number } {
  const count = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
  const a = count(actual);
  const e = count(expected);
  let lost = 0;
  let duplicated = 0;
  for (const [k, n] of e) lost += Math.max(0, n - (a.get(k) ?? 0));
  for (const [k, n] of a) duplicated += Math.max(0, n - (e.get(k) ?? 0));
  const reordered = lost === 0 && duplicated === 0 && actual.join("|") !== expected.join("|") ? 1 : 0;
  return { lost, duplicated, reordered };
}

async function inspect(base: string, root: string, ledger: string, fake: FakeLlm, r: RunResult): Promise<void> {
  const { mids, leaves } = await tree(base, root);
  r.duplicatedChildren = Math.max(0, mids.length - 1) + Math.max(0, leaves.length - 2);
  const threads: [string, string[]][] = [[root, EXPECTED.root], ...mids.map((m): [string, string[]] => [m.id, EXPECTED.mid]), ...leaves.map((l): [string, string[]] => [l.id, EXPECTED.leaf])];
  const resultIds = new Map<string, string>();
  for (const [id, expected] of threads) {
    const msgs = (await messagesOf(base, id)).filter((m) => !m.silent);
    const c = compare(msgs.map((m) => `${m.role}:${m.role === "tool" ? (m.name ?? "") : ""}`), expected);
    r.lost += c.lost;
    r.duplicated += c.duplicated;
    r.reordered += c.reordered;
    for (const m of msgs) if (m.role === "tool" && m.tool_call_id) resultIds.set(m.tool_call_id, m.metadata?.error_code ?? "");
    const logs = (await get(base, `/api/threads/${id}/logs?limit=1000`)).logs as any[];
    r.logRows += logs.length;
    r.logInterrupted += logs.filter((l) => l.status === "interrupted").length;
  }
  for (const id of [root, ...mids.map((m) => m.id)]) {
    const entries = (await get(base, `/api/threads/${id}/subagents`)).subagents as any[];
    r.stuckRunning += entries.filter((e) => e.status === "running").length;
  }
  // The ledger: one line per execution of a side-effect tool, with the call id and attempt the tool saw.
  const lines: { tool: string; toolCallId: string; attempt: number }[] = fs.existsSync(ledger)
    ? fs.readFileSync(ledger, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l))
    : [];
  const byCall = new Map<string, { tool: string; attempts: number[] }>();
  for (const l of lines) {
    const c = byCall.get(l.toolCallId) ?? { tool: l.tool, attempts: [] };
    c.attempts.push(l.attempt);
    byCall.set(l.toolCallId, c);
  }
  r.calls = leaves.length * 3;
  r.executions = lines.length;
  for (const [id, c] of byCall) {
    if (c.attempts.length > 1) {
      r.reruns += c.attempts.length - 1;
      // Every re-run carries the call's id (grouped by it) and a later attempt than the run before it.
      if (c.attempts.some((a, i) => i > 0 && !(a > c.attempts[i - 1]!)) || c.attempts[0]! < 1) r.badRerunAttempts++;
      if (c.tool === "once_only") r.onceOnlyRepeated++;
    }
    if (c.tool === "once_only" && resultIds.get(id) === "interrupted") r.onceOnlyRefused++;
  }
  r.modelRequests = fake.getRequests().length;
}

interface ChaosOptions {
  toolMs: number;
  timeoutMs: number;
  /** Set: a PostgreSQL cluster of this many workers (and an API-only app) on this server. */
  cluster?: { adminUrl: string; workers: number };
}

/** The single app process (restarted after its kill), or the worker cluster (one worker killed, none restarted). */
function deployment(fake: FakeLlm, opts: ChaosOptions): Deployment & { cleanup(): void } {
  const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" };
  if (opts.cluster) {
    const cluster = new WorkerCluster({ ...opts.cluster, agentsSource: AGENTS, env });
    return Object.assign(cluster, { cleanup() {} });
  }
  const server = new ServerProcess({ agentsSource: AGENTS, env });
  return {
    get url() {
      return server.url;
    },
    start: () => server.start(),
    async crash() {
      await server.kill();
      return { recover: () => server.start() };
    },
    stop: () => server.stop(),
    cleanup: () => fs.rmSync(path.dirname(server.dataDir), { recursive: true, force: true }),
  };
}

async function runOnce(fake: FakeLlm, killAtMs: number | null, opts: ChaosOptions): Promise<RunResult & { durationMs: number }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-chaos-"));
  const ledger = path.join(tmp, "ledger.jsonl");
  fake.clearRequests();
  fake.setScript(script(ledger, opts.toolMs));
  const server = deployment(fake, opts);
  const r: RunResult & { durationMs: number } = {
    killAtMs: killAtMs ?? -1,
    finished: false,
    restartToFinishMs: null,
    takeoverMs: null,
    lost: 0,
    duplicated: 0,
    reordered: 0,
    duplicatedChildren: 0,
    stuckRunning: 0,
    calls: 0,
    executions: 0,
    reruns: 0,
    badRerunAttempts: 0,
    onceOnlyRepeated: 0,
    onceOnlyRefused: 0,
    logRows: 0,
    logInterrupted: 0,
    modelRequests: 0,
    durationMs: 0,
  };
  try {
    await server.start();
    const created = await fetch(`${server.url}/api/threads`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ agent_id: "chaos_root" }) });
    const root = ((await created.json()) as { threadId: string }).threadId;
    const t0 = performance.now();
    await fetch(`${server.url}/api/threads/${root}/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ content: "start" }) });
    if (killAtMs !== null) {
      await new Promise((res) => setTimeout(res, killAtMs));
      const crashed = await server.crash();
      const restarted = performance.now();
      await crashed.recover();
      const takeover = crashed.takeoverMs?.();
      r.finished = await waitUntil(() => finishedRun(server.url, root), opts.timeoutMs);
      if (r.finished) r.restartToFinishMs = performance.now() - restarted;
      r.takeoverMs = (await takeover) ?? null;
    } else {
      r.finished = await waitUntil(() => finishedRun(server.url, root), opts.timeoutMs);
    }
    r.durationMs = performance.now() - t0;
    if (!r.finished) console.log(await describeTree(server.url, root));
    await inspect(server.url, root, ledger, fake, r);
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
    server.cleanup();
  }
  return r;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "10" },
      "tool-ms": { type: "string", default: "300" },
      "timeout-ms": { type: "string", default: "90000" },
      postgres: { type: "boolean", default: false },
      workers: { type: "string", default: "3" },
    },
  });
  const runs = Number(values.runs);
  const adminUrl = process.env.TEST_DATABASE_URL || process.env.BENCH_POSTGRES_URL;
  if (values.postgres && !adminUrl?.startsWith("postgres")) throw new Error("--postgres needs TEST_DATABASE_URL or BENCH_POSTGRES_URL (postgresql://…)");
  const opts: ChaosOptions = {
    toolMs: Number(values["tool-ms"]),
    timeoutMs: Number(values["timeout-ms"]),
    ...(values.postgres ? { cluster: { adminUrl: adminUrl!, workers: Math.max(2, Number(values.workers)) } } : {}),
  };
  if (opts.cluster) console.log(`PostgreSQL: an API-only app and ${opts.cluster.workers} workers; each run SIGKILLs one worker, the others take over`);
  const fake = await startFakeLlm({ port: Number(process.env.CHAOS_LLM_PORT ?? 0) });
  try {
    // An uninterrupted run sets the window the kills are drawn from.
    const calm = await runOnce(fake, null, opts);
    if (!calm.finished) throw new Error("the uninterrupted run did not finish: check the chaos agents and the script");
    const window = calm.durationMs;
    console.log(`uninterrupted run: ${Math.round(window)} ms, ${calm.modelRequests} model requests, ${calm.logRows} request-log rows`);
    const results: RunResult[] = [];
    for (let i = 0; i < runs; i++) {
      const killAt = Math.round(Math.random() * window);
      let r: RunResult;
      try {
        r = await runOnce(fake, killAt, opts);
      } catch (err) {
        // A deployment that did not start (a loaded machine) is no result about crashes: say so and go on.
        console.log(`run ${i + 1}/${runs}: could not run: ${(err as Error).message.split("\n")[0]}`);
        continue;
      }
      results.push(r);
      const flags = [
        r.finished ? "finished" : "NOT FINISHED",
        r.takeoverMs !== null ? `taken over in ${Math.round(r.takeoverMs)} ms` : "",
        r.lost + r.duplicated + r.reordered > 0 ? `messages lost/dup/reordered ${r.lost}/${r.duplicated}/${r.reordered}` : "",
        r.duplicatedChildren ? `duplicated children ${r.duplicatedChildren}` : "",
        r.stuckRunning ? `stuck running ${r.stuckRunning}` : "",
        r.reruns ? `re-runs ${r.reruns}` : "",
        r.onceOnlyRefused ? `once_only refused ${r.onceOnlyRefused}` : "",
        r.onceOnlyRepeated ? `ONCE_ONLY REPEATED ${r.onceOnlyRepeated}` : "",
        r.logRows < r.modelRequests ? `REQUESTS WITHOUT A LOG ROW ${r.modelRequests - r.logRows}` : "",
        r.logRows > r.modelRequests ? `rows of requests cut off before the server saw them ${r.logRows - r.modelRequests}` : "",
        r.logRows - r.modelRequests > r.logInterrupted ? `EXTRA ROWS NOT INTERRUPTED ${r.logRows - r.modelRequests - r.logInterrupted}` : "",
      ].filter(Boolean);
      console.log(`run ${i + 1}/${runs}: kill at ${killAt} ms: ${flags.join(", ")}`);
    }
    const sum = (k: keyof RunResult) => results.reduce((s, r) => s + Number(r[k]), 0);
    const rows: [string, string][] = [
      ["runs (one SIGKILL each)", String(results.length)],
      ["finished", `${results.filter((r) => r.finished).length}/${results.length}`],
      [opts.cluster ? "kill to finish, median (ms)" : "restart to finish, median (ms)", String(Math.round(median(results.flatMap((r) => (r.restartToFinishMs === null ? [] : [r.restartToFinishMs])))))],
      ...(opts.cluster
        ? ([
            ["runs whose killed worker held threads", String(results.filter((r) => r.takeoverMs !== null).length)],
            ["kill to takeover, median / max (ms)", `${Math.round(median(results.flatMap((r) => (r.takeoverMs === null ? [] : [r.takeoverMs]))))} / ${Math.round(Math.max(0, ...results.map((r) => r.takeoverMs ?? 0)))}`],
          ] as [string, string][])
        : []),
      ["messages lost / duplicated / reordered", `${sum("lost")} / ${sum("duplicated")} / ${sum("reordered")}`],
      ["duplicated children", String(sum("duplicatedChildren"))],
      ["registry entries stuck running", String(sum("stuckRunning"))],
      ["side-effect tool calls / executions", `${sum("calls")} / ${sum("executions")}`],
      ["re-runs of 'rerun' tools (same toolCallId)", String(sum("reruns"))],
      ["re-runs whose attempt did not increase", String(sum("badRerunAttempts"))],
      ["once_only ('fail') calls run twice", String(sum("onceOnlyRepeated"))],
      ["once_only calls refused as interrupted", String(sum("onceOnlyRefused"))],
      ["request-log rows / model requests seen", `${sum("logRows")} / ${sum("modelRequests")}`],
      ["request-log rows interrupted", String(sum("logInterrupted"))],
      // A row is written (pending) before its request leaves, so a kill between the two leaves a row the server never
      // saw; it ends interrupted. A request the server saw without a row would be a lost request: never allowed.
      ["model requests seen without a log row", String(results.reduce((s, r) => s + Math.max(0, r.modelRequests - r.logRows), 0))],
      ["rows of requests cut off before the server saw them", String(results.reduce((s, r) => s + Math.max(0, r.logRows - r.modelRequests), 0))],
      ["of those, rows not ended as interrupted", String(results.reduce((s, r) => s + Math.max(0, r.logRows - r.modelRequests - r.logInterrupted), 0))],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(`\n${"invariant".padEnd(width)}  value`);
    for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  } finally {
    await fake.close();
  }
}

await main();
