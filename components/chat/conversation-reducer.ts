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
        { durationMs: v.durationMs, status: v.status === "error" ? "error" : "success" },
      ]),
    ),
    pending: [],
    hasOlder: s.hasOlder,
  };
}

const modelName = (m: { metadata?: unknown }): string | null => {
  const model = (m.metadata as { model?: unknown } | null | undefined)?.model;
  return typeof model === "string" ? model : null;
};

/** Stored roles are authorship: `assistant` = side A, `user` written by a model = side B; tool: the caller's side. */
function sideOf(m: Record<string, unknown>, messages: ChatMessage[]): Side | null {
  if (m.side === "a" || m.side === "b") return m.side;
  if (m.role === "assistant") return "a";
  if (m.role === "user") return modelName(m) ? "b" : null;
  if (m.role === "tool" && typeof m.tool_call_id === "string") {
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
 * The optimistic messages still to show once `raw` is stored: the one with its id, or, when the stored message arrives
 * before the post that sent it has returned (so no optimistic message has its id yet), the first one still sending
 * with its role and text. Otherwise, for a moment, the conversation would show the message twice.
 */
function withoutStored(
  pending: PendingMessage[],
  id: string,
  raw: Record<string, unknown>,
  created: boolean,
): PendingMessage[] {
  if (pending.some((p) => p.id === id)) return pending.filter((p) => p.id !== id);
  if (!created) return pending;
  const i = pending.findIndex((p) => p.state === "sending" && p.role === raw.role && p.content === raw.content);
  return i < 0 ? pending : pending.filter((_, k) => k !== i);
}

function upsert(state: ConversationState, raw: Record<string, unknown>, created: boolean): ConversationState {
  const id = String(raw.id ?? "");
  if (!id) return state;
  const i = findIndex(state.messages, id);
  const pending = withoutStored(state.pending, id, raw, created);
  // A stored reply written by a model replaces the streaming bubble at once (no frame with both).
  const streaming = created && raw.role !== "tool" && modelName(raw) ? null : state.streaming;
  if (i >= 0) {
    const prev = state.messages[i]!;
    const next = { ...prev, ...(raw as Partial<ChatMessage>), seq: prev.seq, side: prev.side } as ChatMessage;
    const messages = state.messages.slice();
    messages[i] = next;
    return { ...state, messages, pending, streaming };
  }
  if (!created) return { ...state, pending };
  const seq = typeof raw.seq === "number" ? raw.seq : state.maxSeq + 1;
  const message = { ...(raw as unknown as ChatMessage), seq, side: sideOf(raw, state.messages) } as ChatMessage;
  const messages = state.messages.slice();
  let at = messages.length;
  while (at > 0 && messages[at - 1]!.seq > seq) at--;
  messages.splice(at, 0, message);
  return { ...state, messages, maxSeq: Math.max(state.maxSeq, seq), pending, streaming };
}

function applyEvent(state: ConversationState, e: ThreadEvent): ConversationState {
  switch (e.type) {
    case "message.created":
    case "message.updated":
      return upsert(state, (e.message ?? {}) as Record<string, unknown>, e.type === "message.created");
    case "message.deleted": {
      const i = findIndex(state.messages, String(e.messageId));
      if (i < 0) return state;
      return { ...state, messages: state.messages.filter((_, j) => j !== i) };
    }
    case "step.started": {
      const stepId = String(e.stepId);
      if (state.streaming?.stepId === stepId) return state;
      return {
        ...state,
        status: state.status === "terminated" ? state.status : "running",
        streaming: { stepId, side: e.side as Side, content: "", reasoning: "" },
      };
    }
    case "token.delta": {
      const stepId = String(e.stepId);
      const cur =
        state.streaming?.stepId === stepId
          ? state.streaming
          : { stepId, side: e.side as Side, content: "", reasoning: "" };
      return {
        ...state,
        streaming: {
          ...cur,
          content: cur.content + String(e.content ?? ""),
          reasoning: cur.reasoning + String(e.reasoning ?? ""),
        },
      };
    }
    case "token.snapshot":
      return {
        ...state,
        streaming: {
          stepId: String(e.stepId),
          side: e.side as Side,
          content: String(e.content ?? ""),
          reasoning: String(e.reasoning ?? ""),
        },
      };
    case "step.completed":
      return state.streaming?.stepId === e.stepId ? { ...state, streaming: null } : state;
    case "tool.started":
      return {
        ...state,
        toolRuns: {
          ...state.toolRuns,
          [String(e.toolCallId)]: { ...state.toolRuns[String(e.toolCallId)], running: true },
        },
      };
    case "tool.completed":
      return {
        ...state,
        toolRuns: {
          ...state.toolRuns,
          [String(e.toolCallId)]: {
            running: false,
            durationMs: Number(e.durationMs ?? 0),
            status: e.status === "error" ? "error" : "success",
          },
        },
      };
    case "thread.status": {
      const status = e.status as ThreadStatus;
      return {
        ...state,
        status,
        stopReason: (e.stopReason as string | null | undefined) ?? state.stopReason,
        streaming: status === "running" ? state.streaming : null,
        terminated:
          status === "terminated"
            ? (state.terminated ?? Date.parse(String(e.at ?? "")) * 1000) || Date.now() * 1000
            : state.terminated,
      };
    }
    case "thread.stopped":
      return {
        ...state,
        streaming: e.scope === "activation" ? null : state.streaming,
        lastStop: {
          reason: String(e.reason),
          detail: (e.detail as string | undefined) ?? null,
          scope: (e.scope as string | undefined) ?? null,
          side: (e.side as string | undefined) ?? null,
        },
      };
    case "thread.handoff":
      return { ...state, agentId: String(e.to) };
    default:
      return state;
  }
}

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case "event": {
      const next = applyEvent(state, action.event);
      const seq = action.event.persisted && typeof action.event.seq === "number" ? action.event.seq : 0;
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
