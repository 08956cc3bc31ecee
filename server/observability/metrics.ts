/**
 * Prometheus metrics of a process (`prom-client`), served at `GET /api/metrics`: counted from the runtime's events as
 * they pass on the event bus (steps, model requests with their latency, tokens and cost by model, retries, tool calls,
 * re-runs after a restart, activations, hook failures), the work queue's depth read at each scrape, and the process's
 * own figures (CPU, memory, event-loop lag). A registry of its own per app, so several apps in one process (tests) never
 * share counters.
 *
 * On one machine every event passes this process. With worker processes on PostgreSQL the bus carries every process's
 * events to every other, so each app process counts the whole cluster's work: scrape one of them (or sum by
 * `instance` only the process metrics).
 */
import client from "prom-client";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";

export interface MetricsSources {
  subscribeAll(listener: (envelope: ThreadEventEnvelope) => void): () => void;
  /** USD per million tokens of a model definition (its name as events carry it). */
  prices(model: string): { input?: number; output?: number } | undefined;
  /** The work queue now (read at each scrape). */
  queueDepth(): Promise<{ pending: number; claimed: number }>;
}

export interface Metrics {
  readonly contentType: string;
  render(): Promise<string>;
  close(): void;
}

/**
 * The metrics of an app that serves none: a worker process (`npm run worker`: its health server answers `/health`
 * only, and the app processes count its work from the bus) or the runtime thread of RUNTIME_THREAD=1 (the main
 * thread counts its events). Collecting them anyway cost CPU every second whatever the work: the default metrics
 * sample the event loop's delay every 10 ms.
 */
export function noMetrics(): Metrics {
  const register = new client.Registry();
  return { contentType: register.contentType, render: () => register.metrics(), close: () => {} };
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function createMetrics(sources: MetricsSources): Metrics {
  const register = new client.Registry();
  client.collectDefaultMetrics({ register, prefix: "studio_" });
  const counter = (name: string, help: string, labelNames: string[] = []) => new client.Counter({ name, help, labelNames, registers: [register] });
  const histogram = (name: string, help: string, labelNames: string[]) =>
    new client.Histogram({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers: [register] });

  const steps = counter("studio_steps_total", "Model steps completed, by side", ["side"]);
  const stepDuration = histogram("studio_step_duration_seconds", "A step from its start to its answer stored (request built, model called, message written), by side", ["side"]);
  const requests = counter("studio_llm_requests_total", "Model requests (attempts), by model and outcome", ["model", "status"]);
  const retries = counter("studio_llm_retries_total", "Model request attempts after the first, by model", ["model"]);
  const llmLatency = histogram("studio_llm_latency_seconds", "Model request latency, request sent to last chunk", ["model"]);
  const ttft = histogram("studio_llm_ttft_seconds", "Time to the first streamed token", ["model"]);
  const tokens = counter("studio_llm_tokens_total", "Tokens by model and direction", ["model", "direction"]);
  const cost = counter("studio_llm_cost_usd_total", "Cost in USD at the model definition's prices", ["model"]);
  const tools = counter("studio_tool_calls_total", "Tool calls completed, by tool and outcome", ["tool", "status"]);
  const toolDuration = histogram("studio_tool_duration_seconds", "Tool call duration", ["tool"]);
  const reruns = counter("studio_tool_reruns_total", "Tool calls run again after an interruption (attempt 2 and up)", ["tool"]);
  const activations = counter("studio_activations_total", "Threads that started running (an activation)");
  const stops = counter("studio_thread_stops_total", "Threads that stopped running, by reason", ["reason"]);
  const hookFailures = counter("studio_hook_failures_total", "Hooks that threw (logged and skipped)", ["hook"]);
  const approvals = counter("studio_tool_approvals_requested_total", "Tool calls that waited for a human decision", ["tool"]);
  const queue = new client.Gauge({
    name: "studio_queue_depth",
    help: "Work waiting (pending) and in progress (claimed)",
    labelNames: ["state"],
    registers: [register],
    async collect() {
      const depth = await sources.queueDepth();
      this.set({ state: "pending" }, depth.pending);
      this.set({ state: "claimed" }, depth.claimed);
    },
  });
  void queue;

  const off = sources.subscribeAll((env) => {
    const e = env.event;
    switch (e.type) {
      case "step.completed":
        steps.inc({ side: e.side });
        if (e.durationMs !== undefined) stepDuration.observe({ side: e.side }, e.durationMs / 1000);
        break;
      case "llm.response": {
        requests.inc({ model: e.model, status: e.status });
        if (e.attempt > 1) retries.inc({ model: e.model });
        if (e.latencyMs !== undefined) llmLatency.observe({ model: e.model }, e.latencyMs / 1000);
        if (e.ttftMs !== undefined) ttft.observe({ model: e.model }, e.ttftMs / 1000);
        const input = e.inputTokens ?? 0;
        const output = e.outputTokens ?? 0;
        if (input) tokens.inc({ model: e.model, direction: "input" }, input);
        if (output) tokens.inc({ model: e.model, direction: "output" }, output);
        const p = sources.prices(e.model);
        const usd = ((p?.input ?? 0) * input + (p?.output ?? 0) * output) / 1e6;
        if (usd > 0) cost.inc({ model: e.model }, usd);
        break;
      }
      case "tool.started":
        if ((e.attempt ?? 1) > 1) reruns.inc({ tool: e.name });
        break;
      case "tool.completed":
        tools.inc({ tool: e.name, status: e.status });
        toolDuration.observe({ tool: e.name }, e.durationMs / 1000);
        break;
      case "tool.approval_requested":
        // Announced on the calling thread and on each ancestor: count it once, where it was made.
        if (e.threadId === env.threadId) approvals.inc({ tool: e.name });
        break;
      case "thread.status":
        if (e.status === "running") activations.inc();
        break;
      case "thread.stopped":
        stops.inc({ reason: e.reason });
        break;
      case "hook.failed":
        hookFailures.inc({ hook: e.hook });
        break;
    }
  });

  return {
    contentType: register.contentType,
    render: () => register.metrics(),
    close: () => {
      off();
      register.clear();
    },
  };
}
