/**
 * `npm run demo`: the app on its own demo database, against the scripted OpenAI-compatible server, so a newcomer can
 * watch the example graph work offline: a chat that delegates to a writer/reviewer subagent. Everything the "model"
 * says is scripted (scripts/demo/script.ts).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { startFakeLlm } from "../fake-llm/server";
import { buildIfNeeded } from "../build-if-needed";
import { demoScript } from "./script";

const root = process.cwd();
const port = Number(process.env.PORT ?? 3000);
const fake = await startFakeLlm({ port: Number(process.env.FAKE_LLM_PORT ?? 0), script: demoScript });
buildIfNeeded(root);
console.log(`
  Standard Agents Studio — scripted demo
  The model is the scripted server at ${fake.url}: its answers are canned, nothing is sent anywhere.
  Open http://localhost:${port}, start a thread with writing_assistant and ask for a launch announcement.
`);
const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: process.env.DATA_DIR ?? path.join(root, "data/demo"),
    DATABASE_URL: "",
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "scripted-demo",
    PORT: String(port),
  },
});
const stop = () => {
  child.kill("SIGTERM");
  void fake.close();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => void fake.close().then(() => process.exit(code ?? 0)));
