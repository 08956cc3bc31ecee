/**
 * `npm run fake-llm`: start the scripted OpenAI-compatible server on 127.0.0.1 and keep it running until interrupted.
 */
import path from "node:path";
import { DEFAULT_PORT, USAGE, loadScriptFile, parseCliOptions } from "./cli-options";
import { startFakeLlm, type FakeLlm } from "./server";

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2), process.env);
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const rules = options.scriptFile ? loadScriptFile(options.scriptFile) : [];
  let fake: FakeLlm;
  try {
    fake = await startFakeLlm({
      port: options.port,
      logFile: options.logFile ? path.resolve(options.logFile) : undefined,
      script: rules,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new Error(
        `Port ${options.port} on 127.0.0.1 is already in use. Pass another with --port (or FAKE_LLM_PORT); the default is ${DEFAULT_PORT}.`,
        { cause: err },
      );
    }
    throw err;
  }

  const banner = [
    `fake-llm listening on ${fake.url}`,
    "This is a scripted OpenAI-compatible server, not a model: it answers Chat Completions requests from ordered rules.",
    options.scriptFile
      ? `Script: ${options.scriptFile} (${rules.length} rule${rules.length === 1 ? "" : "s"}).`
      : 'Script: empty; every request gets "(fake-llm: no rule matched)". Replace it with POST /__script.',
  ];
  if (options.logFile) banner.push(`Request log: ${path.resolve(options.logFile)} (one JSON line per request).`);
  banner.push(`Use it with OPENAI_BASE_URL=${fake.url} OPENAI_API_KEY=scripted. Stop with Ctrl+C.`);
  console.log(banner.join("\n"));

  const stop = () => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(`fake-llm: ${(err as Error).message}`);
  process.exit(1);
});
