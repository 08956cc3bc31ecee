/**
 * The baselines of scenario 1 in processes of their own: (a) and (a') in one, (b) in another, so that none shares a
 * process with our app, and (a) never shares one with (b). `@openai/agents` keeps its trace context in an
 * AsyncLocalStorage, which on Node 20 turns on promise hooks for the whole process once it has run: in a shared
 * process every promise of (a) (about 15% of its time) and of our runtime paid for (b)'s choice. Each loop is timed
 * in its child, so the IPC round trip is not counted.
 *
 * Parent side: `startBaselines(url)`. Child side: this file run with `--import tsx` and an IPC channel.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createDispatcher } from "@/server/runtime/llm/http-dispatcher";
import { createHttpFetch } from "@/server/runtime/llm/http-fetch";
import { agentsSdkLoop, openaiLoop, sdkClient, type LoopStats } from "./direct-loops";

/**
 * `openai-transport`: loop (a) with the SDK on our runtime's HTTP transport (`createHttpFetch`: undici's dispatcher on a
 * keep-alive pool of its own) instead of its default fetch (Node's global fetch).
 */
export type Baseline = "openai" | "openai-transport" | "agents";

interface Request {
  id: number;
  loop: Baseline;
  system: string;
  user: string;
  /** Run `loops` loops, `parallel` at a time, and report the process's CPU time over them. */
  batch?: { loops: number; parallel: number };
}

interface Reply {
  id: number;
  ms?: number;
  stats?: LoopStats;
  /** User + system CPU time of the child over a batch, ms. */
  cpuMs?: number;
  error?: string;
}

export interface Baselines {
  /** Run one loop in the baseline process; `ms` is its wall time there. */
  run(loop: Baseline, system: string, user: string): Promise<{ ms: number; stats: LoopStats }>;
  close(): Promise<void>;
}

/** One baseline process that also runs batches of loops (worker-scale's control). */
export interface BaselineProcess extends Baselines {
  /** Run `loops` loops, `parallel` at a time: wall time, steps and the process's CPU time over them. */
  batch(loop: Baseline, system: string, user: string, loops: number, parallel: number): Promise<{ ms: number; steps: number; cpuMs: number }>;
}

/** Two children: one for the `openai` loops, one for `@openai/agents`, so (b)'s promise hooks never reach (a). */
export async function startBaselines(fakeUrl: string): Promise<Baselines> {
  const [openai, agents] = await Promise.all([startChild(fakeUrl), startChild(fakeUrl)]);
  return {
    run: (loop, system, user) => (loop === "agents" ? agents : openai).run(loop, system, user),
    close: async () => {
      await Promise.all([openai.close(), agents.close()]);
    },
  };
}

export async function startChild(fakeUrl: string): Promise<BaselineProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "baseline-process.ts"), fakeUrl], {
    cwd: path.resolve(import.meta.dirname, ".."),
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, (r: Reply) => void>();
  child.on("message", (r: Reply) => waiting.get(r.id)?.(r));
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`the baseline process exited with ${code}`))));
  exited.catch(() => {});
  await Promise.race([new Promise<void>((resolve) => child.once("message", () => resolve())), exited]);
  let next = 1;
  const ask = async (req: Omit<Request, "id">): Promise<Reply> => {
    const id = next++;
    const reply = await Promise.race([
      new Promise<Reply>((resolve) => {
        waiting.set(id, resolve);
        child.send({ id, ...req } satisfies Request);
      }),
      exited,
    ]);
    waiting.delete(id);
    if (reply.error !== undefined) throw new Error(`baseline ${req.loop}: ${reply.error}`);
    return reply;
  };
  return {
    async run(loop, system, user) {
      const reply = await ask({ loop, system, user });
      return { ms: reply.ms!, stats: reply.stats! };
    },
    async batch(loop, system, user, loops, parallel) {
      const reply = await ask({ loop, system, user, batch: { loops, parallel } });
      return { ms: reply.ms!, steps: reply.stats!.steps, cpuMs: reply.cpuMs! };
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

// ---------------------------------------------------------------- the child

if (process.send && process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const client = sdkClient(process.argv[2]!);
  const ourTransport = sdkClient(process.argv[2]!, createHttpFetch(createDispatcher()));
  const once = (req: Request) =>
    req.loop === "agents" ? agentsSdkLoop(client, req.system, req.user) : openaiLoop(req.loop === "openai" ? client : ourTransport, req.system, req.user);
  process.on("message", (req: Request) => {
    void (async () => {
      try {
        const t0 = performance.now();
        if (req.batch) {
          const cpu0 = process.cpuUsage();
          let left = req.batch.loops;
          const stats: LoopStats = { steps: 0, llmMs: 0, result: "" };
          const lane = async () => {
            while (left > 0) {
              left--;
              const s = await once(req);
              stats.steps += s.steps;
              stats.llmMs += s.llmMs;
            }
          };
          await Promise.all(Array.from({ length: Math.max(1, req.batch.parallel) }, lane));
          const cpu = process.cpuUsage(cpu0);
          process.send!({ id: req.id, ms: performance.now() - t0, stats, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies Reply);
          return;
        }
        const stats = await once(req);
        process.send!({ id: req.id, ms: performance.now() - t0, stats } satisfies Reply);
      } catch (err) {
        process.send!({ id: req.id, error: err instanceof Error ? err.message : String(err) } satisfies Reply);
      }
    })();
  });
  process.send({ id: 0 } satisfies Reply);
}
