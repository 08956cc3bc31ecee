/** `npm run worker`: a worker process that runs thread work from the shared PostgreSQL job queue (no HTTP). */
import { loadConfig } from "../server/env";
import { startTracing } from "../server/observability/tracing";
import { startWorker } from "../server/worker/worker-process";

const tracing = await startTracing("worker");
try {
  const app = await startWorker(loadConfig());
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // Running activations finish; their jobs complete and their thread leases are released.
    await app.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
