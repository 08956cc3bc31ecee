/**
 * `npm start`: build the app when the build is missing or older than the sources, then serve it with `next start`.
 * The server applies pending database migrations and loads the definition registry as it boots (instrumentation.ts).
 * `npm run dev` (`--dev`) runs `next dev` instead.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { loadConfig } from "../server/env";
import { buildIfNeeded } from "./build-if-needed";

const root = process.cwd();
const dev = process.argv.includes("--dev");
const config = loadConfig();

if (!dev) buildIfNeeded(root);
const args = [dev ? "dev" : "start", "-p", String(config.PORT)];
if (config.HOST) args.push("-H", config.HOST);
console.log(`[start] serving on http://${config.HOST ?? "localhost"}:${config.PORT}`);
const child = spawn(path.join(root, "node_modules/.bin/next"), args, {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
