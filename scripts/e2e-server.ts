/**
 * The server the browser tests run against: a fresh copy of the example definitions and an empty database under
 * .tmp/e2e, the scripted LLM server on loopback, and the production build of the app served as `npm start` serves it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { E2E_AGENTS_DIR, E2E_DATA_DIR, E2E_FAKE_LLM_PORT, E2E_PORT, E2E_ROOT } from "../e2e/env";
import { startFakeLlm } from "./fake-llm/server";
import { buildIfNeeded } from "./build-if-needed";

const root = process.cwd();
fs.rmSync(E2E_ROOT, { recursive: true, force: true });
fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
fs.cpSync(path.join(root, "agents"), E2E_AGENTS_DIR, { recursive: true });
// Extra definitions some journeys need (e.g. required variables, a handoff), next to the example graph.
fs.cpSync(path.join(root, "e2e/fixtures/agents"), E2E_AGENTS_DIR, { recursive: true });

buildIfNeeded(root);
const fake = await startFakeLlm({ port: E2E_FAKE_LLM_PORT, logFile: path.join(E2E_ROOT, "llm-requests.jsonl") });
const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: E2E_DATA_DIR,
    DATABASE_URL: "",
    AGENTS_DIR: E2E_AGENTS_DIR,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "e2e-scripted",
    PORT: String(E2E_PORT),
    HOST: "127.0.0.1",
  },
});
const stop = async () => {
  child.kill("SIGTERM");
  await fake.close();
};
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void stop().then(() => process.exit(0)));
child.on("exit", (code) => void fake.close().then(() => process.exit(code ?? 0)));
