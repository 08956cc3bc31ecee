/**
 * A standalone server: the app (database, registry, runtime) with the REST API over plain Node HTTP, no Next.js
 * build needed. Integration tests start it as a child process to kill and restart it (crash recovery).
 */
import { serveFetchHandler } from "../server/api/node-http";
import { createRestHandler } from "../server/api/rest/routes";
import { loadConfig } from "../server/env";
import { startTracing } from "../server/observability/tracing";
import { createApp } from "../server/worker/app";

const config = loadConfig();
const tracing = await startTracing("api");
const app = await createApp({ config });
const server = await serveFetchHandler(createRestHandler(async () => app), { port: config.PORT, host: config.HOST ?? "127.0.0.1", rest: true });
console.log(`api-server listening on ${server.url}`);
const shutdown = async () => {
  await server.close();
  await app.close();
  await tracing?.shutdown();
  process.exit(0);
};
process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());
