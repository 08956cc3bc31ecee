/**
 * Worker processes for bench/worker-scale.ts: start one (`scripts/worker.ts` with the statement counter loaded), stop
 * it, and read what it cost the machine from /proc (Linux; NaN elsewhere): CPU time and context switches.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { root, sleep } from "./harness";

/** One statement on the PostgreSQL server (CREATE / DROP DATABASE), on a connection of its own. */
export async function admin(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A worker process; resolves once it runs thread work. BENCH_WORKER_LOGS: a file its output is appended to. */
export function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", path.join(root, "bench/worker-sql-hook.ts"), path.join(root, "scripts/worker.ts")], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const logs = process.env.BENCH_WORKER_LOGS;
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes("[worker]")) resolve(child);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    if (logs) {
      child.stdout!.on("data", (d: Buffer) => fs.appendFileSync(logs, d));
      child.stderr!.on("data", (d: Buffer) => fs.appendFileSync(logs, d));
    }
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
  });
}

export async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/** CPU seconds (user + system, all its threads) a process has used so far. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

export interface Switches {
  /** The process waited (for I/O, a timer): each is a wake-up later. */
  voluntary: number;
  /** The kernel took the CPU from it (another runnable process). */
  involuntary: number;
}

/** Context switches of a process's main thread so far. */
export function contextSwitches(pid: number | undefined): Switches {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { voluntary: field("voluntary_ctxt_switches"), involuntary: field("nonvoluntary_ctxt_switches") };
  } catch {
    return { voluntary: NaN, involuntary: NaN };
  }
}

/** What several processes used between two readings: CPU seconds and context switches, summed. */
export function usageMeter(pids: (number | undefined)[]): () => { cpu: number; perProcessCpu: number[]; switches: Switches } {
  const cpu0 = pids.map(cpuSeconds);
  const cs0 = pids.map(contextSwitches);
  return () => {
    const perProcessCpu = pids.map((p, i) => cpuSeconds(p) - cpu0[i]!);
    const switches = { voluntary: 0, involuntary: 0 };
    pids.forEach((p, i) => {
      const now = contextSwitches(p);
      switches.voluntary += now.voluntary - cs0[i]!.voluntary;
      switches.involuntary += now.involuntary - cs0[i]!.involuntary;
    });
    return { cpu: perProcessCpu.reduce((a, b) => a + b, 0), perProcessCpu, switches };
  };
}
