/** Command-line and environment options of `npm run fake-llm`, and loading a script file. */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { parseScript, type ParsedRule } from "./script-schema";

export const DEFAULT_PORT = 4010;

export const USAGE = `Usage: npm run fake-llm -- [--port 4010] [--script rules.json] [--log requests.jsonl]

A scripted OpenAI-compatible server (Chat Completions) on 127.0.0.1 for tests and offline demos. It is not a model:
it answers from ordered rules. Environment fallbacks: FAKE_LLM_PORT, FAKE_LLM_SCRIPT, FAKE_LLM_LOG.`;

export interface CliOptions {
  port: number;
  scriptFile?: string;
  logFile?: string;
  help: boolean;
}

const portSchema = z.coerce.number().int().min(0).max(65535);

export function parseCliOptions(argv: string[], env: Record<string, string | undefined>): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      script: { type: "string" },
      log: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  const rawPort = values.port ?? env.FAKE_LLM_PORT ?? String(DEFAULT_PORT);
  const port = portSchema.safeParse(rawPort);
  if (!port.success || rawPort.trim() === "") {
    const from = values.port !== undefined ? "--port" : "FAKE_LLM_PORT";
    throw new Error(`${from} must be a port number from 0 to 65535 (got "${rawPort}").`);
  }
  return {
    port: port.data,
    scriptFile: values.script ?? (env.FAKE_LLM_SCRIPT || undefined),
    logFile: values.log ?? (env.FAKE_LLM_LOG || undefined),
    help: values.help === true,
  };
}

/** Reads a script file (`{rules: [...]}` or a bare array); errors name the file and the field path. */
export function loadScriptFile(file: string): ParsedRule[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`Cannot read the fake-llm script ${file}: ${(err as Error).message}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`The fake-llm script ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  return parseScript(json, file);
}
