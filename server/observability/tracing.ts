/**
 * OpenTelemetry tracing of a process, configured by the standard `OTEL_*` variables (`@opentelemetry/sdk-node`):
 * on when `OTEL_TRACES_EXPORTER` names an exporter, or an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); off when `OTEL_SDK_DISABLED=true` or nothing is set. The protocol, headers,
 * sampler, resource attributes and batch sizes come from their own standard variables.
 *
 * The runtime records its spans through the API alone (server/runtime/tracing): an activation (`invoke_agent`), each
 * model attempt (`chat`) and each tool call (`execute_tool`), with the GenAI semantic conventions. Next.js adds its
 * own request spans when the app runs under it. Metrics stay on Prometheus (`/api/metrics`) and logs on stdout
 * (pino): the SDK's OTLP metrics and logs exporters are off unless `OTEL_METRICS_EXPORTER`/`OTEL_LOGS_EXPORTER` say
 * otherwise.
 *
 * The SDK is loaded only when tracing is on: a process without it never pays for its modules.
 */
import { trace } from "@opentelemetry/api";

type Env = Record<string, string | undefined>;

/** How long a stopping process waits for its last spans to be exported. */
const SHUTDOWN_WAIT_MS = 2_000;

export function tracingWanted(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(",").map((s) => s.trim()).filter(Boolean);
  if (exporters && exporters.length > 0) return exporters.some((e) => e !== "none");
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export interface Tracing {
  /** Export what is buffered now (tests, and before a process exits). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Start tracing for this process when the environment asks for it (else null, and the API's spans stay no-ops).
 * `role` (app, api, worker) becomes the `studio.process.role` resource attribute; the service name is
 * `OTEL_SERVICE_NAME`, else `standard-agents-studio`. Call it before the runtime starts.
 */
export async function startTracing(role: string, env: Env = process.env): Promise<Tracing | null> {
  if (!tracingWanted(env)) return null;
  const [{ NodeSDK }, { resourceFromAttributes }] = await Promise.all([import("@opentelemetry/sdk-node"), import("@opentelemetry/resources")]);
  env.OTEL_METRICS_EXPORTER ??= "none";
  env.OTEL_LOGS_EXPORTER ??= "none";
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? "standard-agents-studio",
    resource: resourceFromAttributes({ "studio.process.role": role }),
    instrumentations: [],
  });
  sdk.start();
  return {
    async flush() {
      const provider = trace.getTracerProvider() as { getDelegate?: () => unknown };
      const delegate = (provider.getDelegate?.() ?? provider) as { forceFlush?: () => Promise<void> };
      await delegate.forceFlush?.();
    },
    // Export what is left, but never hold a stopping process for long when the collector does not answer.
    shutdown: () => Promise.race([sdk.shutdown(), new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]),
  };
}
