import type { ThreadState, ToolResult } from "@/server/spec";
import { redactForThread } from "../kernel/thread-secrets";
import { NotFoundError } from "../errors";
import { runCallable } from "../tools/run-callable";
import { runSubprompt } from "../tools/run-subprompt";
import type { ToolCallContext } from "../kernel/tool-call-context";
import { enqueueMessage } from "../thread/thread-ops";
import { loadStepContext } from "../kernel/step-context";
import type { StateScope } from "../kernel/scope";

/**
 * `queueTool` (the call and its result appear in the thread as a regular tool call, durably queued like a message)
 * and `invokeTool` (runs a callable or a subprompt now and returns its result; nothing is stored).
 */
export function toolsApi(scope: StateScope): Pick<ThreadState, "queueTool" | "invokeTool"> {
  return {
    queueTool(toolName, args) {
      const work = redactForThread(scope.deps, scope.thread, JSON.stringify(args ?? {}))
        .then((text) =>
          enqueueMessage(scope.deps, scope.thread.id, {
            role: "assistant",
            content: "",
            metadata: { queued_tool_call: { name: toolName, arguments: text } },
          }),
        )
        .catch((err) => scope.deps.log("warn", `queueTool ${toolName} failed`, { threadId: scope.thread.id, error: String(err) }));
      (scope.pending ??= []).push(work);
    },
    async invokeTool(toolName, args): Promise<ToolResult> {
      const defs = scope.deps.definitions();
      const ctx = scope.ctx ?? (await loadStepContext(scope.deps, scope.thread, scope.side));
      const tc = { ...scope, ctx, assistantMessage: undefined, depth: 1 } as unknown as ToolCallContext;
      if (defs.tool(toolName)) {
        // The invoked tool runs with its own tool config from the prompt (env, options), not the caller's.
        const own = defs.promptTools(ctx.prompt.name).find((e) => e.kind === "tool" && e.name === toolName);
        const config = own?.kind === "tool" ? own.config : { env: {}, options: {} };
        return runCallable(tc, { kind: "tool", name: toolName, index: -1, config }, args ?? {});
      }
      if (defs.prompt(toolName)) {
        return runSubprompt(
          tc,
          { kind: "subprompt", name: toolName, index: -1, config: { includeTextResponse: true, includeToolCalls: true, includeErrors: true } },
          args ?? {},
        );
      }
      throw new NotFoundError(`invokeTool: ${toolName} is neither a tool nor a prompt`);
    },
  };
}
