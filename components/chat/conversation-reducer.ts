import { eventMessageSchema, type EventMessage } from "@/shared/event-message";
import type { RuntimeEventOf } from "@/shared/runtime-events";
import type {
  ChatMessage,
  PendingMessage,
  Side,
  Snapshot,
  StopInfo,
  StreamingReply,
  ThreadEvent,
  ThreadStatus,
  ToolRun,
} from "./types";

/**
 * The conversation as the UI holds it: the stored messages (ordered by seq), the reply being streamed, the thread's
 * live status, tool runs and the messages the user sent that are not stored yet. Every event is applied
 * idempotently (by message id, by tool call id), so replaying events after a reconnect never duplicates anything.
 */
export interface ConversationState {
  messages: ChatMessage[];
  maxSeq: number;
  /** Highest persisted event seq applied. */
  lastEventSeq: number;
  streaming: StreamingReply | null;
  status: ThreadStatus;
  stopReason: string | null;
  lastStop: StopInfo | null;
  /** The active agent (changes on handoff). */
  agentId: string;
  terminated: number | null;
  toolRuns: Record<string, ToolRun>;
  pending: PendingMessage[];
  /** Older messages exist on the server (paged in as the reader scrolls up). */
  hasOlder: boolean;
}

export type ConversationAction =
  | { type: "event"; event: ThreadEvent }
  | { type: "pending.add"; message: PendingMessage }
  | { type: "pending.sent"; tempId: string; id: string }
  | { type: "pending.failed"; id: string; error: string }
  | { type: "pending.remove"; id: string }
  | { type: "older"; messages: ChatMessage[]; hasOlder: boolean };

export function initialConversation(s: Snapshot): ConversationState {
  return {
    messages: s.messages,
    maxSeq: s.messages.reduce((m, x) => Math.max(m, x.seq), 0),
    lastEventSeq: s.lastEventSeq,
    streaming: null,
    status: s.thread.status,
    stopReason: s.thread.stop_reason,
    lastStop: s.lastStop,
    agentId: s.thread.agent_id,
    terminated: s.thread.terminated,
    toolRuns: Object.fromEntries(
      Object.entries(s.toolRuns).map(([k, v]) => [
        k,
        { durationMs: v.durationMs, status: v.status === "error" ? "error" : "success", attempt: v.attempt },
      ]),
    ),
    pending: [],
    hasOlder: s.hasOlder,
  };
}

const modelName = (m: Pick<ChatMessage, "metadata">): string | null => {
  const model = m.metadata?.model;
  return typeof model === "string" ? model : null;
};

/** Stored roles are authorship: `assistant` = side A, `user` written by a model = side B; tool: the caller's side. */
function sideOf(m: EventMessage, messages: ChatMessage[]): Side | null {
  if (m.role === "assistant") return "a";
  if (m.role === "user") return modelName(m) ? "b" : null;
  if (m.role === "tool" && m.tool_call_id) {
    const caller = messages.findLast((x) => x.tool_calls?.some((c) => c.id === m.tool_call_id));
    return caller?.side ?? null;
  }
  return null;
}

function findIndex(messages: ChatMessage[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.id === id) return i;
  return -1;
}

/**
 * The optimistic messages still to show once `stored` is stored: the one with its id, or, when the stored message
 * arrives before the post that sent it has returned (so no optimistic message has its id yet), the first one still
 * sending with its role and text. Otherwise, for a moment, the conversation would show the message twice.
 */
function withoutStored(pending: PendingMessage[], stored: EventMessage, created: boolean): PendingMessage[] {
  if (pending.some((p) => p.id === stored.id)) return pending.filter((p) => p.id !== stored.id);
  if (!created) return pending;
  const i = pending.findIndex((p) => p.state === "sending" && p.role === stored.role && p.content === stored.content);
  return i < 0 ? pending : pending.filter((_, k) => k !== i);
}

function upsert(state: ConversationState, event: RuntimeEventOf<"message.created" | "message.updated">): ConversationState {
  // The event log keeps the message as an open record; one that is not a message (or has no id) changes nothing.
  const parsed = eventMessageSchema.safeParse(event.message);
  if (!parsed.success || !parsed.data.id) return state;
  const stored = parsed.data;
  const created = event.type === "message.created";
  const i = findIndex(state.messages, stored.id);
  const pending = withoutStored(state.pending, stored, created);
  // A stored reply written by a model replaces the streaming bubble at once (no frame with both).
  const streaming = created && stored.role !== "tool" && modelName(stored) ? null : state.streaming;
  if (i >= 0) {
    const prev = state.messages[i]!;
    const messages = state.messages.slice();
    messages[i] = { ...prev, ...stored, seq: prev.seq, side: prev.side };
    return { ...state, messages, pending, streaming };
  }
  if (!created) return { ...state, pending };
  // Events carry no message seq: a new message goes last.
  const seq = state.maxSeq + 1;
  const messages = [...state.messages, { ...stored, seq, side: sideOf(stored, state.messages) }];
  return { ...state, messages, maxSeq: seq, pending, streaming };
}

function applyEvent(state: ConversationState, e: ThreadEvent): ConversationState {
  switch (e.type) {
    case "message.created":
    case "message.updated":
      return upsert(state, e);
    case "message.deleted": {
      const i = findIndex(state.messages, e.messageId);
      if (i < 0) return state;
      return { ...state, messages: state.messages.filter((_, j) => j !== i) };
    }
    case "step.started": {
      if (state.streaming?.stepId === e.stepId) return state;
      return {
        ...state,
        status: state.status === "terminated" ? state.status : "running",
        streaming: { stepId: e.stepId, side: e.side, content: "", reasoning: "" },
      };
    }
    case "token.delta": {
      const cur =
        state.streaming?.stepId === e.stepId
          ? state.streaming
          : { stepId: e.stepId, side: e.side, content: "", reasoning: "" };
      return {
        ...state,
        streaming: { ...cur, content: cur.content + (e.content ?? ""), reasoning: cur.reasoning + (e.reasoning ?? "") },
      };
    }
    case "token.snapshot":
      return { ...state, streaming: { stepId: e.stepId, side: e.side, content: e.content, reasoning: e.reasoning } };
    case "step.completed":
      return state.streaming?.stepId === e.stepId ? { ...state, streaming: null } : state;
    case "tool.started":
      return {
        ...state,
        toolRuns: { ...state.toolRuns, [e.toolCallId]: { ...state.toolRuns[e.toolCallId], running: true, attempt: e.attempt } },
      };
    case "tool.completed":
      return {
        ...state,
        toolRuns: {
          ...state.toolRuns,
          [e.toolCallId]: { running: false, durationMs: e.durationMs, status: e.status, attempt: e.attempt ?? state.toolRuns[e.toolCallId]?.attempt },
        },
      };
    case "thread.status":
      return {
        ...state,
        status: e.status,
        stopReason: e.stopReason ?? state.stopReason,
        streaming: e.status === "running" ? state.streaming : null,
        terminated:
          e.status === "terminated" ? (state.terminated ?? Date.parse(e.at) * 1000) || Date.now() * 1000 : state.terminated,
      };
    case "thread.stopped":
      return {
        ...state,
        streaming: e.scope === "activation" ? null : state.streaming,
        lastStop: { reason: e.reason, detail: e.detail ?? null, scope: e.scope, side: e.side ?? null },
      };
    case "thread.handoff":
      return { ...state, agentId: e.to };
    default:
      return state;
  }
}

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case "event": {
      const next = applyEvent(state, action.event);
      const seq = action.event.persisted ? action.event.seq : 0;
      return seq > next.lastEventSeq ? { ...next, lastEventSeq: seq } : next;
    }
    case "pending.add":
      return { ...state, pending: [...state.pending, action.message] };
    case "pending.sent": {
      // Delivered already (the stored message arrived before the post returned): nothing left to show.
      if (findIndex(state.messages, action.id) >= 0)
        return { ...state, pending: state.pending.filter((p) => p.id !== action.tempId) };
      return {
        ...state,
        pending: state.pending.map((p) => (p.id === action.tempId ? { ...p, id: action.id, state: "queued" } : p)),
      };
    }
    case "pending.failed":
      return {
        ...state,
        pending: state.pending.map((p) => (p.id === action.id ? { ...p, state: "failed", error: action.error } : p)),
      };
    case "pending.remove":
      return { ...state, pending: state.pending.filter((p) => p.id !== action.id) };
    case "older": {
      // A page from above: what the client already has (possibly updated by events) wins.
      const have = new Set(state.messages.map((m) => m.id));
      const first = state.messages[0]?.seq ?? Number.POSITIVE_INFINITY;
      const fresh = action.messages.filter((m) => !have.has(m.id) && m.seq < first);
      return { ...state, messages: [...fresh, ...state.messages], hasOlder: action.hasOlder };
    }
  }
}
