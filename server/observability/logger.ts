/**
 * The process's structured log: one JSON object per line on stdout (`pino`), at `LOG_LEVEL` (default info). Each record
 * names its `component` (runtime, jobs, mcp, db, http, worker, ...) and carries the ids it is about: `threadId`, the
 * `activationId` of the thread's activation in progress, and `traceId`/`spanId` when tracing is on (runtime records);
 * `requestId` (http records, also sent back as the `X-Request-Id` response header). To read it in a terminal, pipe it
 * through any pino formatter (`npm start | npx pino-pretty`).
 *
 * Secret values never reach it: every line is masked, as console output is (server/runtime/env/console-redaction.ts),
 * in its JSON-escaped form too.
 */
import pino, { type DestinationStream, type Logger } from "pino";
import { knownSecretValues } from "@/server/runtime/env/console-redaction";
import { redactText } from "@/server/runtime/env/redact";

export type LogLevel = "debug" | "info" | "warn" | "error";
export type { Logger };

/** Mask every known secret value in a serialized log line (as written, and as JSON escapes it inside a string). */
export function maskSecrets(line: string): string {
  const secrets = knownSecretValues();
  if (secrets.length === 0) return line;
  const forms = new Set<string>();
  for (const s of secrets) {
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  return redactText(line, [...forms].sort((a, b) => b.length - a.length));
}

export function createLogger(opts: { level?: LogLevel; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: opts.level ?? levelFromEnv(),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: maskSecrets },
    },
    // process.stdout (synchronous for files and pipes on Linux): what a test of the process observes is what it prints.
    opts.destination ?? process.stdout,
  );
}

function levelFromEnv(): LogLevel {
  const v = process.env.LOG_LEVEL;
  return v === "debug" || v === "warn" || v === "error" ? v : "info";
}

let root: Logger | null = null;

/** The process's logger (created on first use, at `LOG_LEVEL`). */
export function rootLogger(): Logger {
  root ??= createLogger();
  return root;
}

/** A logger for one part of the app: every record it writes names the component. */
export function componentLogger(component: string): Logger {
  return rootLogger().child({ component });
}

/** The `(level, message, data)` logging function the runtime, the job queue and the MCP pool take. */
export function logFunction(logger: Logger): (level: LogLevel, message: string, data?: Record<string, unknown>) => void {
  return (level, message, data) => (data ? logger[level](data, message) : logger[level](message));
}
