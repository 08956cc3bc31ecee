import type { ThreadState, ToolResult } from "@/server/spec";
import { redactForThread } from "../kernel/thread-secrets";
import type { StateScope } from "../kernel/deps";

/**
 * `queueTool` (the call and its result appear in the thread as a regular tool call, durably queued like a message)
 * and `invokeTool` (runs a callable or a subprompt now and returns its result; nothing is stored).
 */
export function toolsApi(scope: StateScope): Pick<ThreadState, "queueTool" | "invokeTool"> {
  const { deps } = scope;
  return {
    queueTool(toolName, args) {
      const work = redactForThread(deps, scope.thread, JSON.stringify(args ?? {}))
        .then((text) =>
          deps.capabilities.enqueueMessage(deps, scope.thread.id, {
            role: "assistant",
            content: "",
            metadata: { queued_tool_call: { name: toolName, arguments: text } },
          }),
        )
        .catch((err) => deps.log("warn", `queueTool ${toolName} failed`, { threadId: scope.thread.id, error: String(err) }));
      (scope.pending ??= []).push(work);
    },
    invokeTool(toolName, args): Promise<ToolResult> {
      return deps.capabilities.invokeTool(scope, toolName, args ?? {});
    },
  };
}
