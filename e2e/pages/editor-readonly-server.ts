import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { E2E_PORT, E2E_ROOT } from "../env";

/**
 * A second app server with DEFINITIONS_READONLY=1 on its own port, data and copy of the example definitions; it
 * serves the build the main browser-test server already made.
 */
export class ReadonlyServer {
  readonly port = E2E_PORT + 40;
  readonly url = `http://127.0.0.1:${this.port}`;
  readonly root = path.join(E2E_ROOT, "readonly");
  readonly agentsDir = path.join(this.root, "agents");
  private child: ChildProcess | undefined;

  async start(): Promise<void> {
    const projectRoot = path.resolve(import.meta.dirname, "../..");
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.mkdirSync(path.join(this.root, "data"), { recursive: true });
    fs.cpSync(path.join(projectRoot, "agents"), this.agentsDir, { recursive: true });
    this.child = spawn(path.join(projectRoot, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
      cwd: projectRoot,
      stdio: "ignore",
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        DATA_DIR: path.join(this.root, "data"),
        DATABASE_URL: "",
        AGENTS_DIR: this.agentsDir,
        DEFINITIONS_READONLY: "1",
        PORT: String(this.port),
        HOST: "127.0.0.1",
      },
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.ok) return;
      } catch {}
      if (Date.now() > deadline) throw new Error(`the read-only server on ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  }
}
