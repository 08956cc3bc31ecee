import { describe, expect, it } from "vitest";
import type { TokenSnapshot } from "@/shared/chat-stream-event";
import type { EventMessage } from "@/shared/event-message";
import type { RuntimeEvent } from "@/shared/runtime-events";
import { conversationReducer, initialConversation, type ConversationAction, type ConversationState } from "./conversation-reducer";
import type { ChatMessage, Snapshot } from "./types";

/** A message as the runtime stores and emits it. */
const stored = (id: string, role: EventMessage["role"], content: string, extra: Partial<EventMessage> = {}): EventMessage => ({
  id,
  thread_id: "t",
  role,
  content,
  name: null,
  tool_calls: null,
  tool_call_id: null,
  tool_status: null,
  reasoning_content: null,
  attachments: [],
  silent: false,
  depth: 0,
  created_at: 1,
  metadata: null,
  subagent_id: null,
  ...extra,
});
const msg = (id: string, seq: number): ChatMessage => ({ ...stored(id, "user", id, { created_at: seq }), seq, side: null });

function start(messages: ChatMessage[] = []): ConversationState {
  const snapshot = {
    thread: { id: "t", agent_id: "a", root_agent_id: "a", status: "idle", stop_reason: null, terminated: null },
    messages,
    lastEventSeq: 10,
    toolRuns: {},
    lastStop: null,
    hasOlder: false,
  } as unknown as Snapshot;
  return initialConversation(snapshot);
}
/** A runtime event as the stream delivers it: persisted when it has a seq. */
const ev = (e: RuntimeEvent, seq = 0): ConversationAction => ({
  type: "event",
  event: { ...e, seq, persisted: seq > 0, at: "2026-01-01T00:00:00.000Z" },
});
const snap = (e: Omit<TokenSnapshot, "type" | "seq" | "persisted">): ConversationAction => ({
  type: "event",
  event: { type: "token.snapshot", ...e, seq: 0, persisted: false },
});
const step = { agent: "a", prompt: "p", step: 1 };
const run = (s: ConversationState, ...actions: ConversationAction[]) => actions.reduce(conversationReducer, s);

describe("conversation reducer", () => {
  it("applies message events by id: a replayed event neither duplicates nor reorders", () => {
    const created = ev(
      { type: "message.created", message: stored("m2", "assistant", "hi", { metadata: { model: "fast" } }) },
      11,
    );
    const s = run(start([msg("m1", 1)]), created, created);
    expect(s.messages.map((m) => [m.id, m.seq, m.side])).toEqual([
      ["m1", 1, null],
      ["m2", 2, "a"],
    ]);
    expect(s.lastEventSeq).toBe(11);
    const updated = run(s, ev({ type: "message.updated", message: stored("m1", "user", "edited") }, 12));
    expect(updated.messages[0]).toMatchObject({ id: "m1", seq: 1, content: "edited" });
    expect(run(updated, ev({ type: "message.deleted", messageId: "m1" }, 13)).messages.map((m) => m.id)).toEqual([
      "m2",
    ]);
  });

  it("ignores a message event whose message is not a stored message, but counts its seq", () => {
    const s = run(start([msg("m1", 1)]), ev({ type: "message.created", message: { id: "m2", role: "assistant" } }, 11));
    expect(s.messages.map((m) => m.id)).toEqual(["m1"]);
    expect(s.lastEventSeq).toBe(11);
  });

  it("streams deltas into one bubble that the stored reply replaces in the same update", () => {
    let s = run(
      start(),
      ev({ type: "step.started", stepId: "s1", side: "a", ...step }, 11),
      ev({ type: "token.delta", stepId: "s1", side: "a", content: "Hel" }),
      ev({ type: "token.delta", stepId: "s1", side: "a", content: "lo" }),
    );
    expect(s.streaming).toMatchObject({ stepId: "s1", content: "Hello" });
    expect(s.status).toBe("running");
    // A replayed step.started of the same step keeps what was streamed.
    s = run(s, ev({ type: "step.started", stepId: "s1", side: "a", ...step }, 11));
    expect(s.streaming?.content).toBe("Hello");
    // A reconnect's snapshot replaces (never appends to) the text.
    s = run(s, snap({ stepId: "s1", side: "a", content: "Hello wor", reasoning: "" }));
    expect(s.streaming?.content).toBe("Hello wor");
    s = run(
      s,
      ev(
        {
          type: "message.created",
          message: stored("m1", "assistant", "Hello world", { metadata: { model: "fast" } }),
        },
        12,
      ),
    );
    expect(s.streaming).toBeNull();
    expect(s.messages.map((m) => m.content)).toEqual(["Hello world"]);
  });

  it("a stop clears the stream and records why", () => {
    const s = run(
      start(),
      ev({ type: "token.delta", stepId: "s1", side: "a", content: "partial" }),
      ev({ type: "thread.stopped", reason: "user_stop", scope: "activation", detail: "Stopped by the user" }, 11),
      ev({ type: "thread.status", status: "idle", stopReason: "user_stop" }, 12),
    );
    expect(s.streaming).toBeNull();
    expect(s.lastStop).toMatchObject({ reason: "user_stop" });
    expect(s).toMatchObject({ status: "idle", stopReason: "user_stop" });
  });

  it("an optimistic message becomes the stored one with the same id, whichever arrives first", () => {
    const pending = {
      id: "local-1",
      role: "user" as const,
      content: "hi",
      attachments: [],
      state: "sending" as const,
      createdAt: 0,
    };
    let s = run(
      start(),
      { type: "pending.add", message: pending },
      { type: "pending.sent", tempId: "local-1", id: "q1" },
    );
    expect(s.pending).toMatchObject([{ id: "q1", state: "queued" }]);
    s = run(s, ev({ type: "message.created", message: stored("q1", "user", "hi") }, 11));
    expect(s.pending).toEqual([]);
    expect(s.messages.map((m) => m.id)).toEqual(["q1"]);
    // Delivered before the post returned.
    const early = run(
      start(),
      { type: "pending.add", message: { ...pending, id: "local-2" } },
      ev({ type: "message.created", message: stored("q2", "user", "hi") }, 11),
      {
        type: "pending.sent",
        tempId: "local-2",
        id: "q2",
      },
    );
    expect(early.pending).toEqual([]);
  });

  it("never shows a message twice while its post is still on the way (the stored one came first)", () => {
    const sending = (id: string, content: string) => ({
      id,
      role: "user" as const,
      content,
      attachments: [],
      state: "sending" as const,
      createdAt: 0,
    });
    let s = run(
      start(),
      { type: "pending.add", message: sending("local-1", "hi") },
      { type: "pending.add", message: sending("local-2", "hi") },
    );
    s = run(s, ev({ type: "message.created", message: stored("q1", "user", "hi") }, 11));
    // One stored "hi", one still sending: each shown once.
    expect(s.messages.map((m) => m.id)).toEqual(["q1"]);
    expect(s.pending.map((p) => p.id)).toEqual(["local-2"]);
    s = run(s, { type: "pending.sent", tempId: "local-1", id: "q1" });
    expect(s.pending.map((p) => p.id)).toEqual(["local-2"]);
    // A stored message with other text leaves the optimistic one alone.
    s = run(s, ev({ type: "message.created", message: stored("q9", "user", "other") }, 12));
    expect(s.pending.map((p) => p.id)).toEqual(["local-2"]);
  });

  it("a call run again after a restart keeps its attempt from tool.started through tool.completed", () => {
    let s = run(start([msg("m5", 5)]), ev({ type: "tool.started", toolCallId: "c1", name: "x", kind: "tool", arguments: "{}", attempt: 2 }, 11));
    expect(s.toolRuns.c1).toMatchObject({ running: true, attempt: 2 });
    s = run(s, ev({ type: "tool.completed", toolCallId: "c1", name: "x", status: "success", durationMs: 3 }, 12));
    expect(s.toolRuns.c1).toEqual({ running: false, durationMs: 3, status: "success", attempt: 2 });
  });

  it("tool runs, handoffs and older pages", () => {
    let s = run(start([msg("m5", 5)]), ev({ type: "tool.started", toolCallId: "c1", name: "x", kind: "function", arguments: "{}" }, 11));
    expect(s.toolRuns.c1).toMatchObject({ running: true });
    s = run(
      s,
      ev({ type: "tool.completed", toolCallId: "c1", name: "x", status: "error", durationMs: 12 }, 12),
      ev({ type: "thread.handoff", from: "a", to: "b" }, 13),
    );
    expect(s.toolRuns.c1).toEqual({ running: false, durationMs: 12, status: "error" });
    expect(s.agentId).toBe("b");
    s = run(s, { type: "older", messages: [msg("m3", 3), msg("m4", 4), msg("m5", 5)], hasOlder: true });
    expect(s.messages.map((m) => m.id)).toEqual(["m3", "m4", "m5"]);
    expect(s.hasOlder).toBe(true);
  });
});
