import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type Snapshot = Outputs["chat"]["snapshot"];
export type ChatMessage = Snapshot["messages"][number];
export type ThreadInfo = Snapshot["thread"];
export type Usage = Outputs["chat"]["usage"];
export type AgentSummary = Outputs["registry"]["overview"]["agents"][number];
export type ThreadStatus = "running" | "idle" | "terminated";
export type Side = "a" | "b";
export type Attachment = NonNullable<ChatMessage["attachments"]>[number];

/** One event of the `chat.events` stream, as the UI reads it. */
export interface ThreadEvent {
  type: string;
  seq: number;
  persisted?: boolean;
  [key: string]: unknown;
}

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
