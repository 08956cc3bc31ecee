import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SHARE_ENV, Worker } from "node:worker_threads";
import type { AppConfig } from "@/server/env";
import type { AbortReason } from "@/server/runtime/kernel/abort-registry";
import type { EventBus, McpServerStatus } from "@/server/runtime/ports";
import { keepEnvelopeText } from "@/server/runtime/events/envelope-text";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import type { FromRuntimeThread, ToRuntimeThread } from "./runtime-thread-messages";

export interface RuntimeThread {
  /** Runtime options of the app's own runtime (which runs no activations): where its wakes and aborts go. */
  runtime: { notifyWork(): void; broadcastAbort(threadId: string, reason: AbortReason): void };
  /** The MCP servers' state as the runtime thread last reported it (its activations hold the connections). */
  mcpStatus(): McpServerStatus[];
  /** Resolves once the thread's runtime has started (or rejects when the first start failed). */
  ready: Promise<void>;
  /** The running activations finish (up to `graceMs`), then the thread ends; it is not restarted. */
  close(graceMs?: number): Promise<void>;
}

const ENTRY = "server/worker/runtime-thread-entry.ts";
/**
 * The thread loads the TypeScript entry through tsx's loader, registered on the thread itself: Node 20 does not apply
 * an `--import tsx` of the process (nor one in the worker's `execArgv`) to a worker thread's module loading.
 */
const BOOT = `
const { workerData } = require("node:worker_threads");
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;

/** The URL of tsx's loader, resolved from the project (the app may run from a bundle that has no `node_modules` path of its own). */
function tsxLoader(projectRoot: string): string {
  // The ESM build of tsx's API (`require.resolve` answers with its CommonJS one).
  const api = createRequire(path.join(projectRoot, "package.json")).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs");
  return pathToFileURL(api).href;
}
/** Restarts after a death: 1 s, doubling up to 30 s; this many deaths in a row without a start end the process. */
const MAX_FAILED_STARTS = 5;

/**
 * RUNTIME_THREAD=1 on SQLite: the runtime's activations run on a worker thread of the app process, next to the HTTP
 * server, so a step's CPU and an HTTP request or SSE write no longer queue behind each other on one event loop. The
 * thread builds its own app (`role: "worker"`, its own connection to the same SQLite file) and runs the scheduler; this
 * process keeps the app's API role (`RUNTIME_WORKERS=0` semantics: it stores messages and queues work items).
 *
 * The bridge is a message port, in the shapes PostgreSQL's processes use NOTIFY for (server/worker/pg-work.ts):
 * - the thread's events are published on this process's in-memory bus (SSE, tRPC, metrics), in order, once;
 * - work queued here wakes the thread's scheduler (`notifyWork`, coalesced to one message per turn), and a stop or
 *   terminate issued here aborts the activation there (`broadcastAbort`; its stop poll is the fallback).
 * A thread that dies is logged and started again (its scheduler re-queues what was running); when it dies several
 * times in a row without starting again the process exits, for its supervisor to restart it. A first start that
 * fails fails the app's start.
 */
export function startRuntimeThread(opts: {
  config: AppConfig;
  projectRoot: string;
  bus: EventBus;
  log(level: "info" | "warn" | "error", message: string, data?: Record<string, unknown>): void;
  /** When the thread cannot be kept running (default: exit the process with status 1). */
  onGiveUp?: () => void;
}): RuntimeThread {
  let worker: Worker | null = null;
  let closing = false;
  let wakeQueued = false;
  let failedStarts = 0;
  let restartTimer: NodeJS.Timeout | null = null;
  let resolveReady!: () => void;
  let rejectReady!: (err: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {});
  let everStarted = false;
  let mcpServers: McpServerStatus[] = [];

  const post = (m: ToRuntimeThread) => worker?.postMessage(m);

  function spawn(): void {
    const w = new Worker(BOOT, {
      eval: true,
      workerData: { config: opts.config, projectRoot: opts.projectRoot, tsx: tsxLoader(opts.projectRoot), entry: pathToFileURL(path.join(opts.projectRoot, ENTRY)).href },
      // One environment for both threads, as in one process: tools and hooks read (and may set) process.env.
      env: SHARE_ENV,
    });
    worker = w;
    w.on("message", (m: FromRuntimeThread) => {
      if (m.type === "events") {
        for (let i = 0; i < m.events.length; i++) {
          const e = m.events[i]!;
          const text = m.texts[i];
          if (text !== undefined) {
            e.event = JSON.parse(text) as ThreadEventEnvelope["event"];
            keepEnvelopeText(e, text);
          }
          opts.bus.publish(e);
        }
      } else if (m.type === "mcp-status") {
        mcpServers = m.servers;
      } else if (m.type === "ready") {
        failedStarts = 0;
        everStarted = true;
        resolveReady();
        opts.log("info", "runtime thread started", { threadId: w.threadId });
      } else if (m.type === "failed") {
        opts.log("error", "the runtime thread could not start", { error: m.error });
      }
    });
    w.on("error", (err) => opts.log("error", "the runtime thread failed", { error: String(err?.stack ?? err) }));
    w.on("exit", (code) => {
      if (worker === w) worker = null;
      if (closing) return;
      if (!everStarted) {
        // The app's start fails with it (a configuration or database problem is reported there, not retried here).
        closing = true;
        rejectReady(new Error(`the runtime thread exited with code ${code} before it started`));
        return;
      }
      failedStarts++;
      if (failedStarts >= MAX_FAILED_STARTS) {
        opts.log("error", "the runtime thread keeps dying; exiting for the supervisor to restart the process", { code, failedStarts });
        (opts.onGiveUp ?? (() => process.exit(1)))();
        return;
      }
      const delay = Math.min(30_000, 1000 * 2 ** (failedStarts - 1));
      opts.log("error", "the runtime thread ended; starting it again", { code, restartInMs: delay });
      restartTimer = setTimeout(() => {
        restartTimer = null;
        if (!closing) spawn();
      }, delay);
      restartTimer.unref?.();
    });
  }
  spawn();

  return {
    ready,
    mcpStatus: () => mcpServers,
    runtime: {
      notifyWork() {
        if (wakeQueued) return;
        wakeQueued = true;
        queueMicrotask(() => {
          wakeQueued = false;
          post({ type: "wake" });
        });
      },
      broadcastAbort(threadId, reason) {
        post({ type: "abort", threadId, reason });
      },
    },
    async close(graceMs = 10_000) {
      closing = true;
      if (restartTimer) clearTimeout(restartTimer);
      const w = worker;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once("exit", () => resolve()));
      w.postMessage({ type: "close" } satisfies ToRuntimeThread);
      const timer = setTimeout(() => void w.terminate(), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
