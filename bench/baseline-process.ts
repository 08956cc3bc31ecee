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
}

interface Reply {
  id: number;
  ms?: number;
  stats?: LoopStats;
  error?: string;
}

export interface Baselines {
  /** Run one loop in the baseline process; `ms` is its wall time there. */
  run(loop: Baseline, system: string, user: string): Promise<{ ms: number; stats: LoopStats }>;
  close(): Promise<void>;
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

async function startChild(fakeUrl: string): Promise<Baselines> {
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
  return {
    async run(loop, system, user) {
      const id = next++;
      const reply = await Promise.race([
        new Promise<Reply>((resolve) => {
          waiting.set(id, resolve);
          child.send({ id, loop, system, user } satisfies Request);
        }),
        exited,
      ]);
      waiting.delete(id);
      if (reply.error !== undefined) throw new Error(`baseline ${loop}: ${reply.error}`);
      return { ms: reply.ms!, stats: reply.stats! };
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
  process.on("message", (req: Request) => {
    void (async () => {
      try {
        const t0 = performance.now();
        const stats =
          req.loop === "agents"
            ? await agentsSdkLoop(client, req.system, req.user)
            : await openaiLoop(req.loop === "openai" ? client : ourTransport, req.system, req.user);
        process.send!({ id: req.id, ms: performance.now() - t0, stats } satisfies Reply);
      } catch (err) {
        process.send!({ id: req.id, error: err instanceof Error ? err.message : String(err) } satisfies Reply);
      }
    })();
  });
  process.send({ id: 0 } satisfies Reply);
}
