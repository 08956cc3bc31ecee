import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import type { ChatStreamEvent } from "@/shared/chat-stream-event";
import type { EventAttachment, EventMessage } from "@/shared/event-message";
import type { RuntimeEventOf } from "@/shared/runtime-events";

type Outputs = inferRouterOutputs<AppRouter>;

export type Snapshot = Outputs["chat"]["snapshot"];
export type Side = "a" | "b";
/** A stored message as the conversation holds it: the snapshot's, or one a message event delivered, with its order and side. */
export type ChatMessage = EventMessage & { seq: number; side: Side | null };
export type ThreadInfo = Snapshot["thread"];
export type Usage = Outputs["chat"]["usage"];
export type ChildCall = Outputs["chat"]["childCalls"][number];
export type MessageUsage = Outputs["chat"]["messageUsage"][string];
export type AgentSummary = Outputs["registry"]["overview"]["agents"][number];
export type ThreadStatus = RuntimeEventOf<"thread.status">["status"];
export type Attachment = EventAttachment;

/** One event of the `chat.events` stream. */
export type ThreadEvent = ChatStreamEvent;

export interface StreamingReply {
  stepId: string;
  side: Side;
  content: string;
  reasoning: string;
}

export interface ToolRun {
  running?: boolean;
  durationMs?: number;
  status?: "success" | "error";
  /** 2 or more: the call ran again after a restart interrupted it. */
  attempt?: number;
}

export interface StopInfo {
  reason: string;
  detail: string | null;
  scope: string | null;
  side: string | null;
}

/** A message the user sent that the thread has not stored yet (optimistic). */
export interface PendingMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  attachments: Attachment[];
  state: "sending" | "queued" | "failed";
  error?: string;
  createdAt: number;
}
