#!/usr/bin/env node
// The `studio` command line: runs server/cli/main.ts with tsx (TypeScript, no build step), from any folder.
import { spawnSync } from "node:child_process";
import process from "node:process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = pathToFileURL(createRequire(path.join(root, "package.json")).resolve("tsx")).href;
const result = spawnSync(process.execPath, ["--import", tsx, path.join(root, "server/cli/main.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, "tsconfig.json") },
});
process.exit(result.status ?? 1);
