/**
 * The PostgreSQL deployment of `npm run chaos -- --postgres`: an API-only app (RUNTIME_WORKERS=0) and several worker
 * processes (`scripts/worker.ts`) on a fresh database of the server `TEST_DATABASE_URL` (or `BENCH_POSTGRES_URL`)
 * names. A crash SIGKILLs one worker (one that holds a thread at that moment, when there is one); the others take its
 * threads over, nothing is restarted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrateDatabase } from "../server/db/migrate";
import { databaseTarget } from "../server/db/database-url";
import { createDatabase, dropDatabase } from "../server/db/test-postgres";
import { NodeProcess } from "../tests/helpers/node-process";
import { freePort } from "../tests/helpers/server-process";
import { projectRoot } from "../tests/helpers/test-app";

export interface Deployment {
  readonly url: string;
  start(): Promise<void>;
  /** Kill (SIGKILL) at this moment; `recover` brings the run back (a restart, or nothing: other workers take over). */
  crash(): Promise<{ recover(): Promise<void>; takeoverMs?: () => Promise<number | null> }>;
  stop(): Promise<void>;
}

export class WorkerCluster implements Deployment {
  url = "";
  private app: NodeProcess | null = null;
  private readonly workers: NodeProcess[] = [];
  private readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studio-chaos-pg-"));
  private readonly dbName = `studio_failover_chaos_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  private dbUrl = "";

  constructor(private readonly opts: { adminUrl: string; workers: number; agentsSource: string; env: Record<string, string> }) {}

  async start(): Promise<void> {
    this.dbUrl = await createDatabase(this.opts.adminUrl, this.dbName);
    await migrateDatabase(databaseTarget(this.dbUrl), { projectRoot });
    const agentsDir = path.join(this.tmp, "agents");
    fs.cpSync(this.opts.agentsSource, agentsDir, { recursive: true });
    const env = {
      DATABASE_URL: this.dbUrl,
      DATA_DIR: path.join(this.tmp, "data"),
      AGENTS_DIR: agentsDir,
      WATCH_DEFINITIONS: "0",
      SECRETS_KEY: "55".repeat(32),
      ...this.opts.env,
    };
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.app = new NodeProcess("app", "scripts/api-server.ts", { ...env, PORT: String(port), RUNTIME_WORKERS: "0" });
    // Generous start-up timeouts: on a loaded machine starting several node processes at once takes a while.
    await this.app.start(async () => (await fetch(`${this.url}/api/health`).catch(() => null))?.ok === true, 180_000);
    for (let i = 0; i < this.opts.workers; i++) this.workers.push(new NodeProcess(`worker ${i + 1}`, "scripts/worker.ts", env));
    await Promise.all(this.workers.map((w) => w.start(() => w.output.includes("[worker]"), 180_000)));
  }

  async crash() {
    // Kill a worker while it holds a thread: wait for one (a moment when every thread waits kills nothing).
    let held = await this.threadLeases();
    for (const end = Date.now() + 5000; held.length === 0 && Date.now() < end; held = await this.threadLeases()) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const live = this.workers.filter((w) => w.running);
    const busy = live.filter((w) => held.some((l) => l.owner.endsWith(`:${w.pid}`)));
    const pool = busy.length > 0 ? busy : live;
    const victim = pool[Math.floor(Math.random() * pool.length)]!;
    const owner = held.find((l) => l.owner.endsWith(`:${victim.pid}`))?.owner;
    const threads = held.filter((l) => l.owner === owner).map((l) => l.key);
    await victim.kill();
    const killedAt = performance.now();
    return {
      recover: async () => {},
      /** Until every thread the victim held is leased by another worker or has no lease left to take (it settled). */
      takeoverMs: async () => {
        if (threads.length === 0) return null;
        const end = Date.now() + 60_000;
        const ids = threads.map((k) => k.slice("thread:".length));
        while (Date.now() < end) {
          const rows = await this.query<{ owner: string | null; status: string }>(
            `SELECT l."owner", t."status" FROM "Thread" t LEFT JOIN "Lease" l ON l."key" = 'thread:' || t."id" WHERE t."id" = ANY($1::text[])`,
            [ids],
          );
          if (rows.every((r) => (r.owner !== null && r.owner !== owner) || (r.owner === null && r.status !== "running"))) return performance.now() - killedAt;
          await new Promise((r) => setTimeout(r, 50));
        }
        return null;
      },
    };
  }

  async stop(): Promise<void> {
    for (const p of [...this.workers, this.app]) await p?.stop();
    if (this.dbUrl) await dropDatabase(this.opts.adminUrl, this.dbName);
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }

  private threadLeases() {
    return this.query<{ key: string; owner: string }>(`SELECT "key", "owner" FROM "Lease" WHERE "key" LIKE 'thread:%'`);
  }

  private async query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
    const c = new pg.Client({ connectionString: this.dbUrl });
    await c.connect();
    try {
      return (await c.query(sql, values)).rows as T[];
    } finally {
      await c.end();
    }
  }
}
