import type { ThreadState, ToolResult } from "@/server/spec";
import type { AttachmentRecord, QueuedMessageRecord } from "../ports";
import type { RuntimeDeps } from "./deps";
import type { StateScope } from "./scope";

/** A message to queue on a thread (`enqueueMessage`). */
export interface EnqueueInput {
  role: "user" | "assistant";
  content: string;
  attachments?: AttachmentRecord[] | null;
  silent?: boolean;
  metadata?: Record<string, unknown> | null;
}

/**
 * What the lower layers of the runtime (the kernel, `ThreadState`) may ask of the upper ones without importing them:
 * the runtime's folders form layers, and these operations live above their callers. The composition root builds the
 * object once (`thread/capabilities.ts`) and hands it over in `RuntimeDeps`.
 */
export interface RuntimeCapabilities {
  /** The `ThreadState` of a scope (hooks receive one; see `hookContext`). */
  threadState(scope: StateScope): ThreadState;
  /** `state.invokeTool`: run a callable tool or a subprompt now and return its result (nothing is stored). */
  invokeTool(scope: StateScope, toolName: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Queue a message durably: delivered before the thread's next step, or it starts a turn when the thread waits. */
  enqueueMessage(deps: RuntimeDeps, threadId: string, input: EnqueueInput): Promise<QueuedMessageRecord>;
  /** Soft-terminate a thread and its live descendants. */
  terminateThread(deps: RuntimeDeps, threadId: string): Promise<void>;
  /** Set a child's status in its parent's registry; false when the thread is not a subagent. */
  setChildStatus(deps: RuntimeDeps, childId: string, status: string): Promise<boolean>;
}
