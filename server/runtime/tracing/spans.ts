import { ProxyTracerProvider, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from "@opentelemetry/api";
import { newId } from "../ids";
import type { LlmAttempt } from "../llm/types";
import type { ThreadRecord } from "../ports";
import { GEN_AI, providerName, STUDIO } from "./gen-ai";
import { contextFromTraceParent, formatTraceParent } from "./trace-parent";

/**
 * The runtime's spans, through the OpenTelemetry API only: with no SDK registered (the default) every span is the
 * API's non-recording one and nothing is kept. With one (server/observability/tracing.ts), each activation of a
 * thread is an `invoke_agent` span, each model attempt a `chat` span and each tool call an `execute_tool` span under
 * it. A child thread records the `traceparent` of the call that spawned it (ThreadRuntimeState.traceParent), so its
 * activations join its parent's trace in whichever process runs them.
 *
 * Parents are passed explicitly (no active context), so no async context tracking is needed on the hot path.
 */
const tracer = () => trace.getTracer("standard-agents-studio");

interface Open {
  span: Span;
  ctx: Context;
}
/** Open activation spans by thread id (one activation of a thread runs in a process at a time). */
const activations = new Map<string, Open>();
/** The id of each activation in progress in this process, by thread id (logged with its records; tracing or not). */
const activationIds = new Map<string, string>();
/** Open tool-call spans by `threadId \0 toolCallId`. */
const toolCalls = new Map<string, Open>();
const callKey = (threadId: string, callId: string) => `${threadId}\u0000${callId}`;

/** The provider the API delegates to while no SDK is registered. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * No SDK registered (the default): every span would be the API's non-recording one, so none is made. Asked per span
 * (an SDK may be registered after start). Starting a non-recording span is not free in the app's server, where
 * Next.js wraps each tracer's `startSpan` in an async-context exit.
 */
function tracingOff(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_PROVIDER;
}

function open(name: string, kind: SpanKind, parent: Context, attributes: Record<string, string | number>, startTime?: Date): Open | null {
  if (tracingOff()) return null;
  const span = tracer().startSpan(name, { kind, attributes, ...(startTime ? { startTime } : {}) }, parent);
  if (!span.isRecording()) return null;
  return { span, ctx: trace.setSpan(parent, span) };
}

function fail(span: Span, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  span.setAttribute(GEN_AI.errorType, err instanceof Error ? err.name : "error");
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * Start an activation of `thread`: a new activation id, and its span (`invoke_agent <agent>`) under the call that
 * spawned the thread if any.
 */
export function beginActivationSpan(thread: ThreadRecord): void {
  activationIds.set(thread.id, newId());
  const o = open(
    `invoke_agent ${thread.agentId}`,
    SpanKind.INTERNAL,
    contextFromTraceParent(thread.state.traceParent),
    {
      [GEN_AI.operation]: "invoke_agent",
      [GEN_AI.agentName]: thread.agentId,
      [GEN_AI.conversationId]: thread.id,
      [STUDIO.threadId]: thread.id,
      ...(thread.parentId ? { [STUDIO.parentThreadId]: thread.parentId } : {}),
    },
  );
  if (o) activations.set(thread.id, o);
}

/** End the activation span of the thread (an error marks it failed); a no-op when none is open. */
export function endActivationSpan(threadId: string, outcome?: { error?: unknown; stopReason?: string | null }): void {
  activationIds.delete(threadId);
  const o = activations.get(threadId);
  if (!o) return;
  activations.delete(threadId);
  if (outcome?.stopReason) o.span.setAttribute(STUDIO.stopReason, outcome.stopReason);
  if (outcome?.error !== undefined) fail(o.span, outcome.error);
  o.span.end();
}

const parentOf = (threadId: string) => activations.get(threadId)?.ctx ?? ROOT_CONTEXT;

/**
 * Record one model attempt of the thread as a `chat <model>` client span, with its own start and end times; under the
 * tool call `inCallId` when a tool made it (a subprompt), else under the activation.
 */
export function recordLlmAttempt(threadId: string, a: LlmAttempt, inCallId?: string): void {
  const o = open(
    `chat ${a.model.model}`,
    SpanKind.CLIENT,
    (inCallId ? toolCalls.get(callKey(threadId, inCallId))?.ctx : undefined) ?? parentOf(threadId),
    {
      [GEN_AI.operation]: "chat",
      [GEN_AI.provider]: providerName(a.model.provider),
      [GEN_AI.requestModel]: a.model.model,
      [STUDIO.modelDefinition]: a.model.name,
      [STUDIO.attempt]: a.attempt,
      [STUDIO.threadId]: threadId,
    },
    a.startedAt,
  );
  if (!o) return;
  const { span } = o;
  span.setAttributes({ [GEN_AI.inputTokens]: a.usage.inputTokens, [GEN_AI.outputTokens]: a.usage.outputTokens, [STUDIO.cachedTokens]: a.usage.cachedTokens, [STUDIO.cost]: a.cost });
  if (a.ttftMs !== null) span.setAttribute(STUDIO.ttftMs, a.ttftMs);
  const finish = a.response?.finish_reason;
  if (typeof finish === "string") span.setAttribute(GEN_AI.finishReasons, [finish]);
  if (a.status === "error") {
    span.setAttribute(GEN_AI.errorType, "llm_error");
    span.setStatus({ code: SpanStatusCode.ERROR, message: a.error ?? "model request failed" });
  }
  span.end(a.finishedAt);
}

/** A tool call's span (`execute_tool <tool>`), open while it runs; `end` records how it ended. */
export interface ToolSpan {
  end(outcome: { status?: string; error?: unknown }): void;
}
const NO_SPAN: ToolSpan = { end: () => {} };

export function beginToolSpan(threadId: string, callId: string, toolName: string, kind: string | undefined): ToolSpan {
  const o = open(`execute_tool ${toolName}`, SpanKind.INTERNAL, parentOf(threadId), {
    [GEN_AI.operation]: "execute_tool",
    [GEN_AI.toolName]: toolName,
    [GEN_AI.toolCallId]: callId,
    [GEN_AI.toolType]: kind === "mcp" ? "extension" : "function",
    [STUDIO.toolKind]: kind ?? "unknown",
    [STUDIO.threadId]: threadId,
  });
  if (!o) return NO_SPAN;
  const key = callKey(threadId, callId);
  toolCalls.set(key, o);
  return {
    end({ status, error }) {
      if (toolCalls.get(key) === o) toolCalls.delete(key);
      if (status) o.span.setAttribute(STUDIO.toolStatus, status);
      if (error !== undefined) fail(o.span, error);
      else if (status === "error") o.span.setStatus({ code: SpanStatusCode.ERROR });
      o.span.end();
    },
  };
}

/**
 * The `traceparent` a child spawned by `parentThreadId` records: the spawning tool call's span, else the parent's
 * activation span; null when tracing is off or the spawn happens outside an activation.
 */
export function traceParentFor(parentThreadId: string, toolCallId: string | null): string | null {
  const o = (toolCallId ? toolCalls.get(callKey(parentThreadId, toolCallId)) : undefined) ?? activations.get(parentThreadId);
  return o ? formatTraceParent(o.span.spanContext()) : null;
}

/** What a log record about `threadId` carries: its activation in progress, and that activation's span when traced. */
export function logContext(threadId: string): { activationId?: string; traceId?: string; spanId?: string } {
  const activationId = activationIds.get(threadId);
  if (!activationId) return {};
  const sc = activations.get(threadId)?.span.spanContext();
  return sc ? { activationId, traceId: sc.traceId, spanId: sc.spanId } : { activationId };
}
