import path from "node:path";

/** Where the browser tests' server keeps its own copy of the definitions and its database. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_FAKE_LLM_PORT = Number(process.env.E2E_FAKE_LLM_PORT ?? 4110);
/** One folder per port, so parallel runs on different ports do not share data. */
export const E2E_ROOT = path.resolve(import.meta.dirname, `../.tmp/e2e-${E2E_PORT}`);
export const E2E_AGENTS_DIR = path.join(E2E_ROOT, "agents");
export const E2E_DATA_DIR = path.join(E2E_ROOT, "data");
/** The scripted LLM server's base URL, for tests that set its script over HTTP. */
export const E2E_FAKE_LLM_URL = `http://127.0.0.1:${E2E_FAKE_LLM_PORT}`;
