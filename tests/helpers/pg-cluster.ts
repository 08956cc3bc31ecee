import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { createPrismaClient, type PrismaClient } from "@/server/db/client";
import { databaseTarget } from "@/server/db/database-url";
import { migrateDatabase } from "@/server/db/migrate";
import { createDatabase, dropDatabase, uniqueDatabaseName } from "@/server/db/test-postgres";
import { NodeProcess } from "./node-process";
import { freePort } from "./server-process";
import { fixtureAgents, projectRoot } from "./test-app";

/** An API-only app process (`scripts/api-server.ts`, RUNTIME_WORKERS=0) and worker processes on one fresh PostgreSQL database. */
export interface PgCluster {
  /** The app's base URL. */
  base: string;
  /** The environment every process of the cluster gets (database, agents, model server, ...). */
  env: Record<string, string>;
  prisma: PrismaClient;
  app: NodeProcess;
  workers: NodeProcess[];
  /** Start one more worker process (named `worker <n>`) and wait until it runs thread work. */
  addWorker(): Promise<NodeProcess>;
  /** Start the workers created but not started yet. */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
}

const workerReady = (w: NodeProcess) => w.start(() => w.output.includes("[worker]"));

/**
 * Create the database (migrated, named `<prefix><name>_…`), copy the fixture agents, start the app and `workers`
 * worker processes (started at once unless `startWorkers: false`). TEST_APP_PORT pins the app's port.
 */
export async function startPgCluster(
  adminUrl: string,
  opts: { name: string; modelUrl: string; workers: number; startWorkers?: boolean; env?: Record<string, string> },
): Promise<PgCluster> {
  const dbName = uniqueDatabaseName(opts.name);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `studio-${opts.name}-`));
  const url = await createDatabase(adminUrl, dbName);
  await migrateDatabase(databaseTarget(url), { projectRoot });
  const prisma = createPrismaClient(databaseTarget(url));
  const agentsDir = path.join(tmp, "agents");
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  const env: Record<string, string> = {
    DATABASE_URL: url,
    DATA_DIR: path.join(tmp, "data"),
    AGENTS_DIR: agentsDir,
    WATCH_DEFINITIONS: "0",
    SECRETS_KEY: "33".repeat(32),
    OPENAI_BASE_URL: opts.modelUrl,
    OPENAI_API_KEY: "k",
    ...opts.env,
  };
  const port = Number(process.env.TEST_APP_PORT ?? 0) || (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const app = new NodeProcess("app", "scripts/api-server.ts", { ...env, PORT: String(port), RUNTIME_WORKERS: "0" });
  await app.start(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok === true);
  const workers: NodeProcess[] = [];
  const newWorker = () => {
    const w = new NodeProcess(`worker ${workers.length + 1}`, "scripts/worker.ts", env);
    workers.push(w);
    return w;
  };
  for (let i = 0; i < opts.workers; i++) newWorker();
  const cluster: PgCluster = {
    base,
    env,
    prisma,
    app,
    workers,
    async addWorker() {
      const w = newWorker();
      await workerReady(w);
      return w;
    },
    async startWorkers() {
      await Promise.all(workers.filter((w) => w.pid === undefined).map(workerReady));
    },
    async close() {
      for (const p of [...workers, app]) await p.stop();
      await prisma.$disconnect();
      await dropDatabase(adminUrl, dbName);
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
  if (opts.startWorkers !== false) await cluster.startWorkers();
  return cluster;
}
