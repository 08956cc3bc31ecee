/**
 * The scripted OpenAI-compatible server used by integration and browser tests. It answers Chat Completions requests
 * from an ordered list of rules (see `script-schema.ts`), logs every request, and binds to 127.0.0.1 only.
 *
 *   const fake = await startFakeLlm({ script: [{ when: { last_contains: "hi" }, respond: { content: "Hello!" } }] });
 *   const client = new OpenAI({ baseURL: fake.url, apiKey: "test" });
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestListener } from "./http-router";
import { RequestLog, type LoggedRequest } from "./request-log";
import { Script } from "./rule-matcher";
import { parseScript, type ParsedRule, type Rule } from "./script-schema";

export type { LoggedRequest } from "./request-log";
export type { ParsedRule, Rule, ScriptIssue } from "./script-schema";
export { ScriptError, parseScript } from "./script-schema";
export { NO_RULE_CONTENT } from "./response-builder";

export interface FakeLlmOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback only. */
  host?: "127.0.0.1";
  /** JSONL file that receives one line per chat request; truncated at start. */
  logFile?: string;
  /** The initial script. */
  script?: Rule[];
}

export interface FakeLlm {
  /** Base URL for the `openai` SDK, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  port: number;
  /** Replaces the script and resets the rule hit counters; throws a `ScriptError` naming the bad field path. */
  setScript(rules: Rule[]): void;
  getScript(): ParsedRule[];
  getRequests(): LoggedRequest[];
  clearRequests(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

export async function startFakeLlm(opts: FakeLlmOptions = {}): Promise<FakeLlm> {
  const host = opts.host ?? "127.0.0.1";
  if (host !== "127.0.0.1") throw new Error(`fake-llm binds to 127.0.0.1 only (got host "${String(host)}").`);
  const script = new Script(parseScript(opts.script ?? [], "startFakeLlm({ script })"));
  const log = new RequestLog(opts.logFile);
  const server = http.createServer(createRequestListener({ script, log }));
  server.keepAliveTimeout = 1_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;

  return {
    url: `http://${host}:${port}/v1`,
    port,
    setScript: (rules) => script.replace(parseScript(rules, "setScript(rules)")),
    getScript: () => script.getRules(),
    getRequests: () => log.list(),
    clearRequests: () => log.clear(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
