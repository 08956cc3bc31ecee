/**
 * `npm start`: build the app when the build is missing or older than the sources, then serve it (scripts/next-server.ts,
 * the production server of `next start` behind a thin HTTP front). The server applies pending database migrations and
 * loads the definition registry as it boots (instrumentation.ts). `npm run dev` (`--dev`) serves `next dev` instead.
 */
const dev = process.argv.includes("--dev");
// Next.js reads NODE_ENV when it loads, as `next start` and `next dev` set it.
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const { loadConfig } = await import("../server/env");
const { buildIfNeeded } = await import("./build-if-needed");
const { serveNext } = await import("./next-server");
const { startTracing } = await import("../server/observability/tracing");

const root = process.cwd();
const config = loadConfig();
if (!dev) buildIfNeeded(root);
const tracing = await startTracing("app");
const server = await serveNext({ dir: root, dev, port: config.PORT, host: config.HOST });
console.log(`[start] serving on http://${config.HOST ?? "localhost"}:${config.PORT}`);
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void server.close().then(() => tracing?.shutdown()).then(() => process.exit(0)));

export {};
