import type { EventBusStatus } from "@/server/db/event-bus/pg-event-bus";
import type { Queries } from "@/server/db/queries/create-queries";
import type { AppConfig } from "@/server/env";
import type { RegistryStore } from "@/server/registry";
import type { EventBus, McpServerStatus, Persistence } from "@/server/runtime/ports";
import type { Runtime } from "@/server/runtime/runtime";
import type { Metrics } from "@/server/observability/metrics";

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

/**
 * The API's context: everything a route, procedure or page needs from the running process. The composition root
 * (server/worker/app.ts) builds it and the app/ routes hand it to server/api, which never reaches for it itself.
 * The database is reached only through `queries` (read models in server/db) and the runtime's `persistence` ports.
 */
export interface App {
  config: AppConfig;
  registry: RegistryStore;
  queries: Queries;
  persistence: Persistence;
  bus: EventBus;
  /** The bus's connection state (for health). */
  busStatus(): EventBusStatus;
  runtime: Runtime;
  /** What this process does: `app` (API and UI, no workers), `worker` (`npm run worker`) or `both`. */
  role: ProcessRole;
  /** This process's id as a lease owner (`host:pid`). */
  workerId: string;
  /** Health sources the worker side may replace (queue depth, workers seen). */
  health: HealthProbes;
  /** Prometheus metrics of this process (`GET /api/metrics`). */
  metrics: Metrics;
  /**
   * The MCP servers' state where this process's activations run, when that is not its own runtime (RUNTIME_THREAD=1:
   * the runtime thread's). Absent: the runtime's MCP pool says (see mcp/live-status.ts).
   */
  mcpStatus?(): McpServerStatus[];
  startedAt: Date;
  close(): Promise<void>;
}
