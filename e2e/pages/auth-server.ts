import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { E2E_FAKE_LLM_URL, E2E_PORT, E2E_ROOT } from "../env";

/**
 * A second app server with accounts (the main browser-test server runs in local mode), on its own port, data and copy
 * of the definitions; it serves the build the main server already made. Without `admin` it starts with no account, so
 * the first-run setup page is open.
 */
export class AuthServer {
  readonly port: number;
  readonly url: string;
  readonly root: string;
  private child: ChildProcess | undefined;

  constructor(
    private readonly opts: { name: string; offset: number; admin?: { username: string; password: string }; extraAgents?: string; env?: Record<string, string> },
  ) {
    this.port = E2E_PORT + opts.offset;
    this.url = `http://127.0.0.1:${this.port}`;
    this.root = path.join(E2E_ROOT, opts.name);
  }

  async start(): Promise<void> {
    const projectRoot = path.resolve(import.meta.dirname, "../..");
    const agentsDir = path.join(this.root, "agents");
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.mkdirSync(path.join(this.root, "data"), { recursive: true });
    fs.cpSync(path.join(projectRoot, "agents"), agentsDir, { recursive: true });
    fs.cpSync(path.join(projectRoot, "e2e/fixtures/agents"), agentsDir, { recursive: true });
    if (this.opts.extraAgents) fs.cpSync(path.join(projectRoot, this.opts.extraAgents), agentsDir, { recursive: true });
    this.child = spawn(path.join(projectRoot, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
      cwd: projectRoot,
      stdio: "ignore",
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        DATA_DIR: path.join(this.root, "data"),
        DATABASE_URL: "",
        AGENTS_DIR: agentsDir,
        OPENAI_BASE_URL: `${E2E_FAKE_LLM_URL}/v1`,
        OPENAI_API_KEY: "e2e-scripted",
        ADMIN_USERNAME: this.opts.admin?.username ?? "",
        ADMIN_PASSWORD: this.opts.admin?.password ?? "",
        PORT: String(this.port),
        HOST: "127.0.0.1",
        ...this.opts.env,
      },
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${this.url}/api/health`)).ok) return;
      } catch {}
      if (Date.now() > deadline) throw new Error(`the auth server on ${this.port} did not start`);
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
