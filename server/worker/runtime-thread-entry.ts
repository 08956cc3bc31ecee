/**
 * The runtime thread of RUNTIME_THREAD=1 (started by server/worker/runtime-thread.ts): the app with the worker role on
 * its own connection to the SQLite file, running the activations; its events go to the main thread's bus.
 */
import v8 from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { startIdleGc } from "../../scripts/idle-gc";
import { startTracing } from "@/server/observability/tracing";
import type { AppConfig } from "@/server/env";
import type { EventBus } from "@/server/runtime/ports";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";
import { envelopeText } from "@/server/runtime/events/envelope-text";
import { createApp, type RunningApp } from "./app";
import type { FromRuntimeThread, ToRuntimeThread } from "./runtime-thread-messages";

const port = parentPort!;
const { config, projectRoot } = workerData as { config: AppConfig; projectRoot: string };
const post = (m: FromRuntimeThread) => port.postMessage(m);

let app: RunningApp | null = null;
let closing = false;
const early: ToRuntimeThread[] = [];

port.on("message", (m: ToRuntimeThread) => {
  if (!app) return void early.push(m);
  handle(app, m);
});

function handle(a: RunningApp, m: ToRuntimeThread): void {
  if (m.type === "wake") a.runtime.deps.wake();
  else if (m.type === "abort") a.runtime.abortRemote(m.threadId, m.reason);
  else if (m.type === "close" && !closing) {
    closing = true;
    void a
      .close()
      .then(() => tracing?.shutdown())
      .finally(() => process.exit(0));
  }
}

// The runtime's spans (steps, model calls, tools) are exported from this thread when tracing is on, as from the process.
const tracing = await startTracing("runtime-thread");
try {
  app = await createApp({ config: { ...config, RUNTIME_THREAD: false }, projectRoot, skipMigrations: true, role: "worker", bus: forwardingBus(), onMcpStatus: (servers) => post({ type: "mcp-status", servers }) });
  post({ type: "ready" });
  // As `npm start` does on the main thread: after a burst, once this thread goes quiet, one full GC of its heap.
  if (config.IDLE_GC && config.NODE_ENV === "production") startIdleGc({ heapUsed: () => v8.getHeapStatistics().used_heap_size });
  for (const m of early.splice(0)) handle(app, m);
} catch (err) {
  post({ type: "failed", error: String((err as Error)?.stack ?? err) });
  process.exit(1);
}

/**
 * Publishes to the main thread: the envelopes of one turn go in one message (a step's transaction publishes several
 * together), in the order they were published. Nothing subscribes on this thread.
 */
function forwardingBus(): EventBus {
  let pending: ThreadEventEnvelope[] = [];
  const flush = () => {
    const events = pending;
    pending = [];
    const texts = events.map(envelopeText);
    // An event with its stored text goes as that text (a string is copied, an object graph walked by the clone).
    post({ type: "events", events: events.map((e, i) => (texts[i] === undefined ? e : { ...e, event: null as never })), texts });
  };
  return {
    publish(envelope) {
      if (pending.length === 0) queueMicrotask(flush);
      pending.push(envelope);
    },
    subscribe: () => () => {},
    subscribeAll: () => () => {},
  };
}
