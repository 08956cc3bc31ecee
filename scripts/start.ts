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
const { startIdleGc } = await import("./idle-gc");
const { closeProcessApp } = await import("../server/worker/process-app");

// tsx (which runs this file) turns Node's source-map support on for the whole process: every chunk of the Next.js
// build would then have its .map read and kept in memory as it loads (100+ MiB of the heap at rest, and slower start
// and stack traces). The TypeScript above is loaded; the build's chunks need no maps (`next start` reads none
// either). NODE_OPTIONS=--enable-source-maps keeps them on.
if (!dev && !(process.env.NODE_OPTIONS ?? "").includes("--enable-source-maps")) process.setSourceMapsEnabled(false);

const root = process.cwd();
const config = loadConfig();
if (!dev) buildIfNeeded(root);
const tracing = await startTracing("app");
const server = await serveNext({ dir: root, dev, port: config.PORT, host: config.HOST, directApi: !dev && !config.API_THROUGH_NEXT });
console.log(`[start] serving on http://${config.HOST ?? "localhost"}:${config.PORT}`);
// Once a burst of work is over, the heap's garbage is collected, so the resident set returns to its resting size.
if (!dev && config.IDLE_GC) startIdleGc();
// RUNTIME_THREAD: the runtime thread's running activations finish (up to 10 s) and it closes its connection.
const closeApp = () => (config.RUNTIME_THREAD ? closeProcessApp(12_000) : Promise.resolve());
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => void server.close().then(closeApp).then(() => tracing?.shutdown()).then(() => process.exit(0)));
}

export {};
