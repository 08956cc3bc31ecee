import { z } from "zod";

/**
 * Every runtime event, as one discriminated union. Persisted events get the thread's next contiguous sequence number
 * (`seq`) in the event log; `token.delta` events are live only (never persisted) and carry the seq of the last
 * persisted event they follow, so a client resumes from the log after a reconnect and receives the final message.
 */
const messageRef = z.object({
  id: z.string(),
  role: z.enum(["system", "user", "assistant", "tool"]),
  side: z.enum(["a", "b"]).nullable().optional(),
});

export const runtimeEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message.created"), message: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal("message.updated"), message: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal("message.deleted"), messageId: z.string() }),
  z.object({
    type: z.literal("token.delta"),
    stepId: z.string(),
    side: z.enum(["a", "b"]),
    content: z.string().optional(),
    reasoning: z.string().optional(),
  }),
  z.object({
    type: z.literal("step.started"),
    stepId: z.string(),
    side: z.enum(["a", "b"]),
    agent: z.string(),
    prompt: z.string(),
    step: z.number().int(),
  }),
  z.object({
    type: z.literal("step.completed"),
    stepId: z.string(),
    side: z.enum(["a", "b"]),
    message: messageRef.optional(),
    toolCalls: z.number().int(),
    /** From the step's start (building its request) to its assistant message stored, in ms; tools run after. */
    durationMs: z.number().optional(),
  }),
  z.object({
    type: z.literal("tool.started"),
    stepId: z.string().optional(),
    toolCallId: z.string(),
    name: z.string(),
    kind: z.string(),
    arguments: z.string(),
    /** 1 the first time the call runs; 2, 3, … when it runs again after an interruption (a crash, a restart). */
    attempt: z.number().int().optional(),
  }),
  z.object({
    type: z.literal("tool.completed"),
    toolCallId: z.string(),
    name: z.string(),
    status: z.enum(["success", "error"]),
    durationMs: z.number(),
    messageId: z.string().optional(),
    /** The run of the call that produced the result (see `tool.started`); absent when the call never started. */
    attempt: z.number().int().optional(),
  }),
  /**
   * A call of a tool with `approval` waits for a human decision (emitted on the calling thread and on each ancestor,
   * so a root thread shows its descendants' requests; `path` runs from the root to the calling thread).
   */
  z.object({
    type: z.literal("tool.approval_requested"),
    approvalId: z.string(),
    threadId: z.string(),
    toolCallId: z.string(),
    name: z.string(),
    /** The model's arguments (JSON text, secret values masked). */
    arguments: z.string(),
    expiresAt: z.string().nullable(),
    path: z.array(z.object({ threadId: z.string(), agent: z.string() })),
  }),
  /** An approval request was decided (`expired`: its `approvalTimeout` passed; it resolves as a denial). */
  z.object({
    type: z.literal("tool.approval_resolved"),
    approvalId: z.string(),
    threadId: z.string(),
    toolCallId: z.string(),
    name: z.string(),
    decision: z.enum(["approved", "denied", "expired"]),
    /** The approver changed the arguments. */
    edited: z.boolean(),
    note: z.string().nullable(),
  }),
  /** An attempt is about to be sent (one per HTTP attempt, retries and fallbacks included). Never carries secrets. */
  z.object({
    type: z.literal("llm.request"),
    stepId: z.string(),
    /** Model definition name; `modelId` is the remote id sent verbatim. */
    model: z.string(),
    modelId: z.string().optional(),
    provider: z.string().optional(),
    attempt: z.number().int(),
    /** Step number in the activation (null for a subprompt's call). */
    step: z.number().int().nullable().optional(),
    messageCount: z.number().int().optional(),
    toolCount: z.number().int().optional(),
  }),
  z.object({
    type: z.literal("llm.response"),
    stepId: z.string(),
    model: z.string(),
    attempt: z.number().int(),
    status: z.enum(["success", "error"]),
    logId: z.string().optional(),
    error: z.string().optional(),
    inputTokens: z.number().int().optional(),
    outputTokens: z.number().int().optional(),
    latencyMs: z.number().optional(),
    ttftMs: z.number().optional(),
  }),
  z.object({
    type: z.literal("thread.stopped"),
    reason: z.string(),
    side: z.enum(["a", "b"]).optional(),
    scope: z.enum(["turn", "session", "activation"]),
    detail: z.string().optional(),
  }),
  z.object({
    type: z.literal("thread.status"),
    status: z.enum(["running", "idle", "terminated"]),
    stopReason: z.string().nullable().optional(),
  }),
  z.object({ type: z.literal("thread.handoff"), from: z.string(), to: z.string() }),
  z.object({
    type: z.literal("queue.enqueued"),
    queueId: z.string(),
    role: z.enum(["user", "assistant"]),
  }),
  z.object({ type: z.literal("queue.delivered"), queueId: z.string(), messageId: z.string() }),
  /** `data` is what was emitted, absent when nothing (or `undefined`) was: JSON drops it on the way. */
  z.object({ type: z.literal("custom"), event: z.string(), data: z.unknown().optional() }),
  z.object({
    type: z.literal("subagent.updated"),
    childId: z.string(),
    name: z.string(),
    status: z.string(),
    change: z.enum(["spawned", "status", "completed", "failed", "terminated", "messaged"]),
  }),
  z.object({ type: z.literal("hook.failed"), hookId: z.string(), hook: z.string(), error: z.string() }),
  z.object({
    type: z.literal("effect.updated"),
    effectId: z.string(),
    name: z.string(),
    status: z.enum(["pending", "running", "done", "failed", "cancelled"]),
    attempts: z.number().int(),
    error: z.string().optional(),
    /** `interrupted`: an `onInterrupt: 'fail'` effect found interrupted by a restart, not run again. */
    errorCode: z.string().optional(),
  }),
]);

export type RuntimeEvent = z.infer<typeof runtimeEventSchema>;
export type RuntimeEventType = RuntimeEvent["type"];
/** The event of one type, e.g. `RuntimeEventOf<"thread.status">`. */
export type RuntimeEventOf<T extends RuntimeEventType> = Extract<RuntimeEvent, { type: T }>;

/** An event as stored and streamed: the payload plus its thread, sequence and time. */
export interface ThreadEventEnvelope {
  threadId: string;
  /** Contiguous per-thread sequence; live-only events carry the last persisted seq. */
  seq: number;
  /** False for token deltas, which are never written to the log. */
  persisted: boolean;
  at: string;
  event: RuntimeEvent;
}

/** An event as the API streams it to the browser: the payload flattened with its envelope's seq, persistence and time. */
export type StreamedRuntimeEvent = RuntimeEvent & Pick<ThreadEventEnvelope, "seq" | "persisted" | "at">;

export const LIVE_ONLY_EVENTS: ReadonlySet<RuntimeEventType> = new Set(["token.delta"]);
