import type { EventBus } from "@/server/runtime/ports";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";

/** The reply a thread is streaming: the text of its step in progress. */
export interface Inflight {
  stepId: string;
  side: "a" | "b";
  content: string;
  reasoning: string;
  /** The last persisted event seq this partial follows. */
  seq: number;
}

const isModelMessage = (m: Record<string, unknown>) =>
  m.role !== "tool" && typeof (m.metadata as { model?: unknown } | null | undefined)?.model === "string";

/**
 * Token deltas are live only; to show a reply that is half streamed when a client (re)connects, the API keeps the
 * text of each thread's step in progress and drops it once the step's message is stored or the thread stops.
 */
class InflightTracker {
  private readonly steps = new Map<string, Inflight>();
  constructor(bus: EventBus) {
    bus.subscribeAll((env) => this.apply(env));
  }
  get(threadId: string): Inflight | undefined {
    const s = this.steps.get(threadId);
    return s ? { ...s } : undefined;
  }
  private apply(env: ThreadEventEnvelope): void {
    const e = env.event;
    const cur = this.steps.get(env.threadId);
    if (e.type === "step.started") {
      this.steps.set(env.threadId, { stepId: e.stepId, side: e.side, content: "", reasoning: "", seq: env.seq });
    } else if (e.type === "token.delta") {
      const s =
        cur && cur.stepId === e.stepId
          ? cur
          : { stepId: e.stepId, side: e.side, content: "", reasoning: "", seq: env.seq };
      s.content += e.content ?? "";
      s.reasoning += e.reasoning ?? "";
      s.seq = Math.max(s.seq, env.seq);
      this.steps.set(env.threadId, s);
    } else if (
      e.type === "step.completed" ||
      e.type === "thread.stopped" ||
      (e.type === "thread.status" && e.status !== "running") ||
      (e.type === "message.created" && isModelMessage(e.message))
    ) {
      this.steps.delete(env.threadId);
    }
  }
}

const trackers = new WeakMap<EventBus, InflightTracker>();

/** The bus's tracker, started on first use (a conversation snapshot starts it, so later reconnects find the text). */
export function inflight(bus: EventBus): InflightTracker {
  let t = trackers.get(bus);
  if (!t) trackers.set(bus, (t = new InflightTracker(bus)));
  return t;
}
