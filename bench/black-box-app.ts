/**
 * The app as a user runs it, for the black-box bench: `npm start` in a process group of its own (a fresh SQLite data
 * folder, the bench definitions, the scripted model server), reached only over HTTP and SSE. Its memory is read from
 * /proc as the resident set of every process in the group (npm, sh, tsx, node, next-server: whatever the start chain
 * leaves running).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { benchAgents, root, sleep } from "./harness";

export interface ProcessMemory {
  pid: number;
  name: string;
  rssKiB: number;
}

export interface BlackBoxApp {
  url: string;
  pid: number;
  /** Every process of the app's process group with its resident set. */
  memory(): ProcessMemory[];
  /** CPU time (user + system) the app's process group has used so far, ms. */
  cpuMs(): number;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The processes whose process group is `pgid`, with their resident set (VmRSS) from /proc. */
export function groupMemory(pgid: number): ProcessMemory[] {
  const out: ProcessMemory[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid pgrp …: the name may hold spaces and parentheses, so split after the last ')'.
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const status = fs.readFileSync(`/proc/${entry}/status`, "utf8");
      const rss = /VmRSS:\s+(\d+) kB/.exec(status);
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean);
      const name = cmd.length > 0 ? cmd.slice(0, 3).map((c) => path.basename(c)).join(" ") : stat.slice(stat.indexOf("(") + 1, close);
      out.push({ pid: Number(entry), name, rssKiB: rss ? Number(rss[1]) : 0 });
    } catch {
      // The process ended while we read it.
    }
  }
  return out;
}

export const totalKiB = (m: ProcessMemory[]) => m.reduce((a, p) => a + p.rssKiB, 0);

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time (utime + stime, threads included) of the processes whose process group is `pgid`, ms. */
export function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended while we read it.
    }
  }
  return ticks * TICK_MS;
}

/** CPU time (user + system) one process has used so far, ms (0 once it is gone). */
export function pidCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * `npm start` with the bench definitions on a fresh data folder. `BENCH_APP_NODE_ARGS` (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS may not carry) runs the command of `npm start` with those node
 * options instead, without npm in front. `BENCH_APP_ROOT` starts the app of another checkout (an older build, for a
 * side-by-side comparison) with this bench's definitions.
 */
export async function startBlackBoxApp(fakeUrl: string, env: Record<string, string> = {}, port?: number): Promise<BlackBoxApp> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-blackbox-"));
  port ??= await freePort();
  const nodeArgs = process.env.BENCH_APP_NODE_ARGS?.split(" ").filter(Boolean);
  const [command, args] = nodeArgs ? [process.execPath, [...nodeArgs, "--import", "tsx", "scripts/start.ts"]] : ["npm", ["start"]];
  const child: ChildProcess = spawn(command, args, {
    cwd: process.env.BENCH_APP_ROOT ?? root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: path.join(tmp, "data"),
      AGENTS_DIR: benchAgents,
      WATCH_DEFINITIONS: "0",
      SECRETS_KEY: "22".repeat(32),
      OPENAI_BASE_URL: fakeUrl,
      OPENAI_API_KEY: "bench",
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the app did not answer /api/health within 300 s:\n${output}`);
    await sleep(250);
  }
  const pgid = child.pid!;
  return {
    url,
    pid: pgid,
    memory: () => groupMemory(pgid),
    cpuMs: () => groupCpuMs(pgid),
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((r) => child.once("exit", () => r()));
        process.kill(-pgid, "SIGTERM");
        await Promise.race([exited, sleep(10_000)]);
        try {
          process.kill(-pgid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
