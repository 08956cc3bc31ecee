import { isSpanContextValid, ROOT_CONTEXT, trace, TraceFlags, type Context, type SpanContext } from "@opentelemetry/api";

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A span's context as a W3C `traceparent` value, or null when the span records nothing (tracing is off). */
export function formatTraceParent(sc: SpanContext): string | null {
  if (!isSpanContextValid(sc)) return null;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & TraceFlags.SAMPLED ? 1 : 0).toString(16).padStart(2, "0")}`;
}

/**
 * The context whose parent is the span a `traceparent` names (a thread's spawning call, recorded on the child thread so
 * that any process that runs the child links it to its parent's call). Anything malformed starts a new trace.
 */
export function contextFromTraceParent(value: string | undefined | null): Context {
  const m = value ? TRACE_PARENT.exec(value) : null;
  if (!m) return ROOT_CONTEXT;
  const sc: SpanContext = { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16), isRemote: true };
  return isSpanContextValid(sc) ? trace.setSpanContext(ROOT_CONTEXT, sc) : ROOT_CONTEXT;
}
