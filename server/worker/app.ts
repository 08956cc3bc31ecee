import os from "node:os";
import path from "node:path";
import { isMainThread, threadId } from "node:worker_threads";
import { createPrismaClient, type PrismaClient } from "@/server/db/client";
import { migrateDatabase } from "@/server/db/migrate";
import { diskFileStorage } from "@/server/db/file-storage/disk-file-storage";
import { createPersistence } from "@/server/db/persistence";
import { leaseStore } from "@/server/db/repositories/leases";
import { createQueries } from "@/server/db/queries/create-queries";
import { config as loadProcessConfig, type AppConfig } from "@/server/env";
import { createMcpClientPool } from "@/server/mcp/client-pool";
import { watchMcpStatus } from "@/server/mcp/status-watch";
import { createRegistryStore } from "@/server/registry";
import { definitionsCache } from "@/server/runtime/definitions-from-registry";
import { redactConsole } from "@/server/runtime/env/console-redaction";
import { createSecretBox } from "@/server/runtime/env/secret-box";
import { createLlmClient } from "@/server/runtime/llm/llm-client";
import { Runtime } from "@/server/runtime/runtime";
import { draftDefinitionsCache } from "./draft-definitions";
import { createEventBus } from "./event-bus";
import { startPgWork } from "./pg-work";
import { startRuntimeThread } from "./runtime-thread";
import { processAppKey } from "./process-app";
import { startWorkerHeartbeat } from "./worker-heartbeat";
import { loadSecretsKey } from "./secrets-key";
import { createMetrics, noMetrics } from "@/server/observability/metrics";
import { componentLogger, logFunction } from "@/server/observability/logger";
import type { App, ProcessRole } from "@/server/api/app-context";
import type { EventBus, McpServerStatus } from "@/server/runtime/ports";
import { ensureAdmin } from "@/server/api/auth/sessions";

/**
 * The composition root: configuration, database, definition registry, event bus, LLM client and runtime, wired once
 * per process. In embedded mode the Next.js server starts it from `instrumentation.ts`; tests and standalone servers
 * call `createApp` directly. The result is the API's context (`App`, defined in server/api) plus the database client,
 * which only the process's own scripts, tests and benchmarks use.
 */
export interface RunningApp extends App {
  prisma: PrismaClient;
}

export interface CreateAppOptions {
  config: AppConfig;
  /** Folder that holds `server/spec/index.ts` and `prisma/` (defaults to the working directory). */
  projectRoot?: string;
  /** Skip applying migrations (when the caller already did). */
  skipMigrations?: boolean;
  /** Process environment lookup for model `apiKeyEnv` names. */
  processEnv?: (name: string) => string | undefined;
  /** `worker` for a process that only runs workers (it publishes events but does not listen for them). */
  role?: ProcessRole;
  /** The event bus to publish on instead of the database's (the runtime thread's, which forwards to the main thread). */
  bus?: EventBus;
  /** Told the MCP servers' state when it changes (the runtime thread's, which forwards it to the main thread). */
  onMcpStatus?: (servers: McpServerStatus[]) => void;
}

export async function createApp(opts: CreateAppOptions): Promise<RunningApp> {
  const projectRoot = opts.projectRoot ?? process.cwd();
  const cfg = opts.config;
  if (!opts.skipMigrations) {
    const started = performance.now();
    const { applied } = await migrateDatabase(cfg.database, { projectRoot });
    if (applied.length > 0) {
      componentLogger("db").info({ migrations: applied, ms: Math.round(performance.now() - started) }, `applied ${applied.length} migration(s)`);
    }
  }
  const prisma = createPrismaClient(cfg.database, {
    backgroundCheckpoint: true,
    checkNestedTransactions: cfg.NODE_ENV !== "production",
  });
  const queries = createQueries(prisma);
  await ensureAdmin(queries, cfg.ADMIN_USERNAME, cfg.ADMIN_PASSWORD);
  // RUNTIME_THREAD on SQLite: this thread serves the API only; a worker thread runs the activations (runtime-thread.ts).
  const threaded = cfg.RUNTIME_THREAD && cfg.database.kind === "sqlite" && cfg.RUNTIME_WORKERS > 0 && opts.role !== "worker";
  const runWorkers = cfg.RUNTIME_WORKERS > 0 && !threaded;
  // On PostgreSQL thread work goes through pg-boss, shared with the worker processes (`npm run worker`).
  const pgWork =
    cfg.database.kind === "postgresql"
      ? await startPgWork({
          databaseUrl: cfg.database.url,
          prisma,
          runWorkers,
          leaseSeconds: cfg.WORKER_LEASE_SECONDS,
          log: logFunction(componentLogger("jobs")),
        })
      : null;
  const persistence = createPersistence(prisma, {
    ...pgWork?.persistence,
    fileStorage: { mode: cfg.FILE_STORAGE, disk: cfg.fileStorageDir ? diskFileStorage(cfg.fileStorageDir) : null },
  });
  const registry = await createRegistryStore({
    dir: cfg.agentsDir,
    projectRoot,
    specModulePath: path.join(projectRoot, "server/spec/index.ts"),
    watch: cfg.WATCH_DEFINITIONS,
    writeNameTypes: cfg.WATCH_DEFINITIONS && cfg.NODE_ENV === "development" && !cfg.DEFINITIONS_READONLY,
  });
  const role: ProcessRole = opts.role ?? (runWorkers ? "both" : "app");
  const workerId = `${os.hostname()}:${process.pid}${isMainThread ? "" : `/${threadId}`}`;
  const events = opts.bus
    ? { bus: opts.bus, status: () => ({ kind: "memory" as const }), close: async () => {} }
    : await createEventBus({ database: cfg.database, prisma, events: persistence.events, listen: role !== "worker" });
  const bus = events.bus;
  const runtimeThread = threaded
    ? startRuntimeThread({ config: cfg, projectRoot, bus, log: logFunction(componentLogger("runtime-thread")) })
    : null;
  const secrets = createSecretBox(loadSecretsKey(cfg.SECRETS_KEY, cfg.dataDir));
  // Console output (tools, hooks and effects print through it, and so does our log) never shows a secret value.
  const restoreConsole = redactConsole(secrets);
  // Tools of MCP servers (agents/mcp/*.ts): one SDK client per server and settings, reconnected with backoff.
  const pool = createMcpClientPool({ cwd: projectRoot, log: logFunction(componentLogger("mcp")) });
  const mcp = opts.onMcpStatus ? watchMcpStatus(pool, opts.onMcpStatus) : pool;
  const runtime = new Runtime({
    persistence,
    bus,
    mcp,
    llm: createLlmClient({
      defaultBaseURL: cfg.OPENAI_BASE_URL,
      defaultApiKey: cfg.OPENAI_API_KEY,
      maxRetries: cfg.LLM_MAX_RETRIES,
      baseDelayMs: cfg.LLM_RETRY_BASE_DELAY_MS,
      timeoutMs: cfg.LLM_TIMEOUT_MS,
      proxy: cfg.proxy,
      // Custom providers (agents/providers/*.ts) from the registry's current snapshot.
      customProvider: (name) => registry.current().providers.get(name)?.factory,
    }),
    definitions: definitionsCache(() => registry.current()),
    // "Try it" threads on an unsaved editor draft: the draft's changes over the current saved definitions.
    draftDefinitions: draftDefinitionsCache(() => registry.current()),
    secrets,
    settings: {
      maxTotalSteps: cfg.MAX_TOTAL_STEPS,
      announceAfterMs: cfg.STEP_ANNOUNCE_AFTER_MS,
      defaultBaseURL: cfg.OPENAI_BASE_URL,
      defaultApiKey: cfg.OPENAI_API_KEY,
      providerDefaults: {
        anthropic: { baseURL: cfg.ANTHROPIC_BASE_URL, apiKey: cfg.ANTHROPIC_API_KEY },
        google: { baseURL: cfg.GEMINI_BASE_URL, apiKey: cfg.GEMINI_API_KEY },
      },
      processEnv: opts.processEnv ?? ((name) => process.env[name]),
    },
    workerId,
    log: logFunction(componentLogger("runtime").child({ workerId })),
    runWorkers,
    ...pgWork?.runtime,
    ...runtimeThread?.runtime,
    concurrency: cfg.RUNTIME_CONCURRENCY,
  });
  // The heartbeat first: a thread lease this process takes is judged by it (a lease without one waits for job expiry).
  const heartbeat = runWorkers
    ? await startWorkerHeartbeat(pgWork?.leases ?? leaseStore(prisma), workerId, cfg.database.kind === "sqlite" ? { everyMs: 15_000 } : {})
    : null;
  await runtime.start();
  await pgWork?.listen(
    () => runtime.deps.wake(),
    (m) => runtime.abortRemote(m.threadId, m.reason),
  );
  await runtimeThread?.ready;
  // A worker process serves no metrics (the app processes count its work from the bus): it collects none.
  const metrics =
    role === "worker"
      ? noMetrics()
      : createMetrics({
          subscribeAll: (listener) => bus.subscribeAll(listener),
          prices: (model) => {
            const def = registry.current().models.get(model)?.definition;
            return def ? { input: def.inputPrice, output: def.outputPrice } : undefined;
          },
          queueDepth: async () => {
            const depth = await (pgWork ? pgWork.queueDepth() : queries.health.workItemDepth());
            return { pending: Number(depth.pending) || 0, claimed: Number(depth.claimed) || 0 };
          },
        });
  return {
    config: cfg,
    registry,
    prisma,
    queries,
    persistence,
    bus,
    busStatus: events.status,
    runtime,
    role,
    workerId,
    health: pgWork ? { queue: pgWork.queueDepth } : {},
    ...(runtimeThread ? { mcpStatus: () => mergeMcpStatus(runtimeThread.mcpStatus(), mcp.status()) } : {}),
    metrics,
    startedAt: new Date(),
    async close() {
      metrics.close();
      await runtimeThread?.close();
      await heartbeat?.stop();
      await runtime.close();
      await mcp.close();
      await pgWork?.close();
      await events.close();
      registry.close();
      await prisma.$disconnect();
      restoreConsole();
    },
  };
}

type GlobalWithApp = typeof globalThis & { [processAppKey]?: Promise<RunningApp> };

/** The process-wide app, created on first use and shared by route handlers, tRPC and instrumentation. */
export function getApp(): Promise<RunningApp> {
  const g = globalThis as GlobalWithApp;
  if (!g[processAppKey]) {
    g[processAppKey] = createApp({ config: loadProcessConfig() }).catch((err) => {
      delete g[processAppKey];
      throw err;
    });
  }
  return g[processAppKey];
}

/** The runtime thread's view of each MCP server, with this thread's own sessions for servers it has not used. */
function mergeMcpStatus(thread: McpServerStatus[], own: McpServerStatus[]): McpServerStatus[] {
  const names = new Set(thread.map((s) => s.name));
  return [...thread, ...own.filter((s) => !names.has(s.name))];
}
