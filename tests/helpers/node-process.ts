import { spawn, type ChildProcess } from "node:child_process";
import { projectRoot, waitFor } from "./test-app";

/**
 * A project script run by node itself (tsx as a loader, not a wrapper process), so that SIGKILL really kills it:
 * the app (`scripts/api-server.ts`) or a worker (`scripts/worker.ts`) of a multi-process test.
 */
export class NodeProcess {
  private child: ChildProcess | null = null;
  output = "";

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Start, then wait until `ready` holds (it may read `output`); fails with the output when the process exits. */
  async start(ready: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", this.script], {
      cwd: projectRoot,
      env: { ...process.env, NODE_ENV: "test", ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stdout!.on("data", (d) => (this.output += d));
    child.stderr!.on("data", (d) => (this.output += d));
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with code ${child.exitCode}`);
      return ready();
    }, timeoutMs).catch((err: Error) => {
      throw new Error(`${this.name} did not start: ${err.message}\n${this.output}`);
    });
  }

  /** SIGKILL: no shutdown code runs. */
  async kill(): Promise<void> {
    await this.signal("SIGKILL", 10_000);
  }

  /** SIGTERM, then SIGKILL after five seconds. */
  async stop(): Promise<void> {
    if (!(await this.signal("SIGTERM", 5000))) await this.kill();
  }

  private async signal(sig: NodeJS.Signals, waitMs: number): Promise<boolean> {
    const child = this.child;
    if (!child || !this.running) return true;
    const exited = new Promise<boolean>((r) => child.once("exit", () => r(true)));
    child.kill(sig);
    return Promise.race([exited, new Promise<boolean>((r) => setTimeout(() => r(false), waitMs))]);
  }
}
