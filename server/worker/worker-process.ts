import { redactDatabaseUrl } from "@/server/db/database-url";
import { ConfigError, type AppConfig } from "@/server/env";
import { createApp, type RunningApp } from "./app";
import { serveHealth } from "./health-server";
import { componentLogger } from "@/server/observability/logger";

/**
 * A worker process (`npm run worker`): the runtime without HTTP, running thread work from the shared PostgreSQL job
 * queue next to other workers and API processes. On SQLite the app process runs threads itself, so there is no
 * separate worker to start.
 */
export async function startWorker(cfg: AppConfig): Promise<RunningApp> {
  if (cfg.database.kind !== "postgresql") {
    throw new ConfigError(
      "DATABASE_URL: `npm run worker` needs a PostgreSQL database (postgres://user:pass@host:5432/db) shared with the app; " +
        "on the embedded SQLite database the app process runs the threads itself",
    );
  }
  // RUNTIME_WORKERS=0 turns runtime work off in an app process; a worker process exists to run it.
  const app = await createApp({ config: { ...cfg, RUNTIME_WORKERS: Math.max(1, cfg.RUNTIME_WORKERS) }, role: "worker" });
  const health = cfg.WORKER_HEALTH_PORT ? await serveHealth(app, { port: cfg.WORKER_HEALTH_PORT, host: cfg.HOST }) : null;
  componentLogger("worker").info(
    { workerId: app.workerId, database: redactDatabaseUrl(cfg.database.url), ...(health ? { health: `${health.url}/health` } : {}) },
    `[worker] ${app.workerId} running thread work`,
  );
  return {
    ...app,
    async close() {
      await health?.close();
      await app.close();
    },
  };
}
