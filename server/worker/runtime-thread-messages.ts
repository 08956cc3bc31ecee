import type { AbortReason } from "@/server/runtime/kernel/abort-registry";
import type { McpServerStatus } from "@/server/runtime/ports";
import type { ThreadEventEnvelope } from "@/shared/runtime-events";

/** From the app's main thread to its runtime thread (server/worker/runtime-thread.ts). */
export type ToRuntimeThread =
  /** Work was queued: claim now rather than at the next poll. */
  | { type: "wake" }
  /** A stop or terminate was committed for the thread: abort its activation if it runs there. */
  | { type: "abort"; threadId: string; reason: AbortReason }
  /** Finish the running activations and end. */
  | { type: "close" };

/** From the runtime thread to the main thread. */
export type FromRuntimeThread =
  /**
   * The events the thread's runtime published since the last message, in order; `texts[i]` is the JSON text the
   * event of `events[i]` was stored as, when kept (the SSE frame is built from it, see envelope-text.ts): that
   * envelope's `event` is then left out (null) and parsed back from the text on arrival.
   */
  | { type: "events"; events: ThreadEventEnvelope[]; texts: (string | undefined)[] }
  /** The state of the MCP servers its activations use changed (for `GET /api/mcp-servers` and the diagnostics). */
  | { type: "mcp-status"; servers: McpServerStatus[] }
  /** The thread's runtime started (its scheduler claims work). */
  | { type: "ready" }
  /** Its start failed (the thread then ends). */
  | { type: "failed"; error: string };
