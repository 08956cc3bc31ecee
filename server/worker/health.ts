import os from "node:os";
import { redactDatabaseUrl } from "@/server/db/database-url";
import type { EventBusStatus } from "@/server/db/event-bus/pg-event-bus";
import type { App } from "./app";

/** What a process does: serves the API/UI only, runs workers only (`npm run worker`), or both (the default). */
export type ProcessRole = "app" | "worker" | "both";

/** Work waiting and in progress, from whichever queue the installation runs on. */
export interface QueueDepth {
  /** `work-items` (the built-in table) or the queue implementation that filled it (e.g. `pg-boss`). */
  source: string;
  /** Waiting work (due now or later). */
  pending: number;
  /** Work claimed by a worker and not finished. */
  claimed: number;
  /** Further counts the source offers (due now, retries, per queue…). */
  [extra: string]: unknown;
}

/** A worker that claimed work or renewed a lease recently. */
export interface WorkerSeen {
  id: string;
  lastSeenAt: string;
  /** Work it holds now. */
  claimed: number;
}

/**
 * Health sources a process can replace: the queue-based worker side fills `queue` (e.g. pg-boss counts) and
 * `workers` (its heartbeats) when it has better figures than the work-item table.
 */
export interface HealthProbes {
  queue?: () => Promise<QueueDepth>;
  workers?: () => Promise<WorkerSeen[]>;
}

const VERSION = "0.1.0";
const PROBE_TIMEOUT_MS = 3000;
/** A worker counts as seen when it claimed or extended a lease this recently. */
export const WORKERS_SEEN_WINDOW_MS = 120_000;

/** The health report of this process: JSON without secrets, and 503 when the database or the event bus is down. */
export async function collectHealth(app: App): Promise<{ httpStatus: number; body: Record<string, unknown> }> {
  const { kind } = app.config.database;
  const started = performance.now();
  const database = await probe(() => app.prisma.$queryRawUnsafe("SELECT 1")).then((r) =>
    r.ok
      ? { ok: true, kind, latencyMs: round(performance.now() - started) }
      : { ok: false, kind, error: r.error },
  );
  const [queue, workers] = database.ok
    ? await Promise.all([
        probe(app.health.queue ?? (() => workItemDepth(app))),
        probe(app.health.workers ?? (() => leaseOwners(app))),
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

/** Built-in queue depth: the work-item table (pending now or later, claimed). */
async function workItemDepth(app: App): Promise<QueueDepth> {
  const now = new Date();
  const [pending, due, claimed] = await Promise.all([
    app.prisma.workItem.count({ where: { status: "pending" } }),
    app.prisma.workItem.count({ where: { status: "pending", runAt: { lte: now } } }),
    app.prisma.workItem.count({ where: { status: "claimed" } }),
  ]);
  return { source: "work-items", pending, due, claimed };
}

/**
 * Built-in workers seen: owners of leases taken or renewed within the window (every process with workers renews its
 * `worker:<id>` lease; thread leases on PostgreSQL) and owners of claimed work items (SQLite's queue).
 */
async function leaseOwners(app: App): Promise<WorkerSeen[]> {
  const since = new Date(Date.now() - WORKERS_SEEN_WINDOW_MS);
  const [items, leases] = await Promise.all([
    app.prisma.workItem.groupBy({
      by: ["leaseOwner"],
      where: { status: "claimed", leaseOwner: { not: null }, updatedAt: { gte: since } },
      _count: { _all: true },
      _max: { updatedAt: true },
    }),
    app.prisma.lease.findMany({ where: { updatedAt: { gte: since } }, select: { key: true, owner: true, updatedAt: true } }),
  ]);
  const seen = new Map<string, { last: Date; claimed: number }>();
  const note = (id: string, at: Date, claimed: number) => {
    const s = seen.get(id) ?? { last: at, claimed: 0 };
    if (at > s.last) s.last = at;
    s.claimed += claimed;
    seen.set(id, s);
  };
  for (const r of items) if (r.leaseOwner) note(r.leaseOwner, r._max.updatedAt ?? since, r._count._all);
  for (const l of leases) note(l.owner, l.updatedAt, l.key.startsWith("thread:") ? 1 : 0);
  return [...seen]
    .map(([id, s]) => ({ id, lastSeenAt: s.last.toISOString(), claimed: s.claimed }))
    .sort((a, b) => a.id.localeCompare(b.id));
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
