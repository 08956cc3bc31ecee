import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createTestDatabaseUrl, testDatabaseKind, type TestDatabaseUrl } from "@/server/db/test-database";
import { projectRoot, waitFor } from "./test-app";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * The app as a real child process (`scripts/api-server.ts`) on its own data folder, so a test can SIGKILL it at any
 * moment and start it again on the same database.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  readonly dataDir: string;
  readonly agentsDir: string;
  url = "";
  output = "";
  /** PostgreSQL runs: the process's own database, created at the first start and dropped by `stop()`. */
  private database: TestDatabaseUrl | null = null;

  constructor(
    private readonly opts: { agentsSource: string; env: Record<string, string> },
  ) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-proc-"));
    this.dataDir = path.join(tmp, "data");
    this.agentsDir = path.join(tmp, "agents");
    fs.cpSync(opts.agentsSource, this.agentsDir, { recursive: true });
  }

  /** Starts the server; a port taken between choosing it and binding it (EADDRINUSE) is retried on another port. */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (err) {
        if (attempt >= 3 || !this.output.includes("EADDRINUSE")) throw err;
        await this.kill();
        this.output = "";
      }
    }
  }

  private async startOnce(): Promise<void> {
    if (!this.database && testDatabaseKind() === "postgresql") this.database = await createTestDatabaseUrl("proc");
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    // node itself runs the server (tsx as a loader, not as a wrapper process), so a SIGKILL really kills the server.
    this.child = spawn(process.execPath, ["--import", "tsx", "scripts/api-server.ts"], {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: "test",
        PORT: String(port),
        DATA_DIR: this.dataDir,
        DATABASE_URL: this.database?.url ?? "",
        AGENTS_DIR: this.agentsDir,
        WATCH_DEFINITIONS: "0",
        SECRETS_KEY: "22".repeat(32),
        ...this.opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const from = this.output.length;
    this.child.stdout!.on("data", (d) => (this.output += d));
    this.child.stderr!.on("data", (d) => (this.output += d));
    const child = this.child;
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
      // This child's own word that it listens, first: `freePort` closes the port before the child binds it, so another
      // test's server may have taken it meanwhile, and that server's /api/health would answer for this one (its
      // requests, and the threads they create, would then land in the other test's app).
      if (!this.output.slice(from).includes(`listening on ${this.url}`)) return false;
      try {
        return (await fetch(`${this.url}/api/health`)).ok;
      } catch {
        return false;
      }
    }, 60_000).catch((err) => {
      throw new Error(`server did not start: ${err.message}\n${this.output}`);
    });
  }

  /** SIGKILL: no shutdown code runs. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    this.child = null;
  }

  /** SIGTERM (SIGKILL after 5 s), then the PostgreSQL database is dropped. */
  async stop(): Promise<void> {
    await this.terminate();
    const database = this.database;
    this.database = null;
    await database?.drop();
  }

  private async terminate(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    this.child = null;
  }
}
