import type { Caller } from "@/shared/caller";
import type { RuntimeEvent } from "@/shared/runtime-events";
import type { App } from "../app-context";
import { ownerOf } from "../auth/access";
import type { AgentTool } from "./agent-tools";

/** What an MCP call of an agent answers. */
export interface AgentCallOutcome {
  threadId: string;
  /** The thread's status when the run ended (`idle` or `terminated`). */
  status: string;
  /** The agent's last answer (side A's last assistant message). */
  text: string;
  isError: boolean;
}

/** A line for a progress notification, for the events worth telling a caller about. */
function progressMessage(e: RuntimeEvent): string | null {
  switch (e.type) {
    case "step.started":
      return "the agent is thinking";
    case "tool.started":
      return `calling ${e.name}`;
    case "tool.completed":
      return `${e.name} ${e.status === "success" ? "finished" : "failed"}`;
    case "thread.handoff":
      return "handed over to another agent";
    default:
      return null;
  }
}

/**
 * Runs an agent for an MCP caller: a new thread owned by the caller, its first message built from the arguments (the
 * JSON of the arguments when the agent has a `requiredSchema`, else `message`), then blocks until the run ends,
 * reporting progress on each step and tool call. When `signal` aborts (the SDK's request signal), the thread is stopped.
 */
export async function runAgentCall(
  app: App,
  caller: Caller,
  tool: AgentTool,
  args: Record<string, unknown>,
  opts: { signal: AbortSignal; onProgress?: (progress: number, message: string) => void },
): Promise<AgentCallOutcome> {
  const content = tool.structured ? JSON.stringify(args) : typeof args.message === "string" ? args.message : JSON.stringify(args);
  const thread = await app.runtime.createThread({ userId: ownerOf(caller), agentId: tool.name, tags: ["mcp"] });
  let progress = 0;
  let wake: () => void = () => undefined;
  const unsubscribe = app.bus.subscribe(thread.id, (envelope) => {
    const message = progressMessage(envelope.event);
    if (message) opts.onProgress?.(++progress, message);
    wake();
  });
  const onAbort = () => void app.runtime.stop(thread.id).catch(() => undefined);
  opts.signal.addEventListener("abort", onAbort);
  try {
    await app.runtime.postMessage(thread.id, { content });
    let current = await app.runtime.getThread(thread.id);
    while (current.status === "running" && !opts.signal.aborted) {
      // Woken by the thread's events; a slow poll covers events published by another process.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 500);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      current = await app.runtime.getThread(thread.id);
    }
    const messages = await app.persistence.messages.list(thread.id, { order: "desc", limit: 50 });
    const answer = messages.find((m) => m.role === "assistant" && m.side === "a" && !m.silent && (m.content ?? "") !== "");
    const stoppedByCaller = opts.signal.aborted;
    return {
      threadId: thread.id,
      status: current.status,
      text: answer?.content ?? (stoppedByCaller ? "The call was cancelled." : "The agent gave no answer."),
      isError: stoppedByCaller,
    };
  } finally {
    opts.signal.removeEventListener("abort", onAbort);
    unsubscribe();
  }
}
