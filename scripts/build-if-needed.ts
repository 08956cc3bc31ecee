import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SOURCES = ["app", "components", "server", "shared", "public", "package.json", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "instrumentation.ts", "proxy.ts"];
const SKIP = new Set(["node_modules", ".next", "generated", "data", ".tmp"]);
const distDir = () => process.env.NEXT_DIST_DIR || ".next";

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (SKIP.has(entry)) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** True when `.next` is missing or older than any source file the build depends on. */
export function needsBuild(root: string): boolean {
  const buildId = path.join(root, distDir(), "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

/** Run `next build` when needed; exits the process if the build fails. */
export function buildIfNeeded(root: string): void {
  if (!needsBuild(root)) return;
  console.log("[build] building the app (next build)…");
  const r = spawnSync(path.join(root, "node_modules/.bin/next"), ["build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    cwd: root,
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
