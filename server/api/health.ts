import os from "node:os";
import { redactDatabaseUrl } from "@/server/db/database-url";
import type { EventBusStatus } from "@/server/db/event-bus/pg-event-bus";
import type { App } from "./app-context";

const VERSION = "0.1.0";
const PROBE_TIMEOUT_MS = 3000;
/** A worker counts as seen when it claimed or extended a lease this recently. */
const WORKERS_SEEN_WINDOW_MS = 120_000;

/** The health report of this process: JSON without secrets, and 503 when the database or the event bus is down. */
export async function collectHealth(app: App): Promise<{ httpStatus: number; body: Record<string, unknown> }> {
  const { kind } = app.config.database;
  const started = performance.now();
  const database = await probe(() => app.queries.health.ping()).then((r) =>
    r.ok
      ? { ok: true, kind, latencyMs: round(performance.now() - started) }
      : { ok: false, kind, error: r.error },
  );
  const [queue, workers] = database.ok
    ? await Promise.all([
        probe(app.health.queue ?? (() => app.queries.health.workItemDepth())),
        probe(app.health.workers ?? (() => app.queries.health.workersSeen(new Date(Date.now() - WORKERS_SEEN_WINDOW_MS)))),
      ])
    : [{ ok: false as const, error: "database unreachable" }, { ok: false as const, error: "database unreachable" }];
  const bus: EventBusStatus = app.busStatus();
  const busOk = bus.kind === "memory" || bus.connection?.connected === true;
  const snap = app.registry.current();
  const ok = database.ok && busOk;
  const body = {
    status: ok ? "ok" : "degraded",
    version: VERSION,
    role: app.role,
    process: { id: app.workerId, host: os.hostname(), pid: process.pid, runtimeWorkers: app.config.RUNTIME_WORKERS },
    uptimeSeconds: Math.round((Date.now() - app.startedAt.getTime()) / 1000),
    database,
    queue: queue.ok ? queue.value : { error: queue.error },
    workers: workers.ok
      ? { windowSeconds: WORKERS_SEEN_WINDOW_MS / 1000, count: workers.value.length, seen: workers.value }
      : { error: workers.error },
    eventBus: { ok: busOk, ...bus },
    registry: {
      agents: snap.agents.size,
      errors: snap.diagnostics.filter((d) => d.severity === "error").length,
      warnings: snap.diagnostics.filter((d) => d.severity === "warning").length,
    },
    llm:
      app.config.OPENAI_API_KEY || app.config.OPENAI_BASE_URL
        ? { configured: true }
        : { configured: false, hint: "Set OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint) to run agents." },
  };
  return { httpStatus: ok ? 200 : 503, body };
}

type ProbeResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Run a probe with a timeout; its error message is redacted (no credentials in URLs) and shortened. */
async function probe<T>(fn: () => Promise<T>): Promise<ProbeResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: safeMessage(err) };
  } finally {
    clearTimeout(timer);
  }
}

export function safeMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const redacted = redactDatabaseUrl(text).replace(/(password|passwd|pwd)=[^\s&;]+/gi, "$1=***");
  const firstLine = redacted.split("\n").find((l) => l.trim() !== "") ?? redacted;
  return firstLine.length > 300 ? `${firstLine.slice(0, 300)}…` : firstLine;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
