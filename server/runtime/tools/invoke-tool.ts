import type { ToolResult } from "@/server/spec";
import { NotFoundError } from "../errors";
import type { StateScope } from "../kernel/deps";
import { loadStepContext } from "../kernel/step-context";
import type { ToolCallContext } from "../kernel/tool-call-context";
import { runCallable } from "./run-callable";
import { runSubprompt } from "./run-subprompt";

/** `state.invokeTool`: run a callable tool or a subprompt by name now and return its result; nothing is stored. */
export async function invokeTool(scope: StateScope, toolName: string, args: Record<string, unknown>): Promise<ToolResult> {
  const defs = scope.deps.definitions();
  const ctx = scope.ctx ?? (await loadStepContext(scope.deps, scope.thread, scope.side));
  const tc = { ...scope, ctx, assistantMessage: undefined, depth: 1 } as unknown as ToolCallContext;
  if (defs.tool(toolName)) {
    // The invoked tool runs with its own tool config from the prompt (env, options), not the caller's.
    const own = defs.promptTools(ctx.prompt.name).find((e) => e.kind === "tool" && e.name === toolName);
    const config = own?.kind === "tool" ? own.config : { env: {}, options: {} };
    return runCallable(tc, { kind: "tool", name: toolName, index: -1, config }, args);
  }
  if (defs.prompt(toolName)) {
    return runSubprompt(
      tc,
      { kind: "subprompt", name: toolName, index: -1, config: { includeTextResponse: true, includeToolCalls: true, includeErrors: true } },
      args,
    );
  }
  throw new NotFoundError(`invokeTool: ${toolName} is neither a tool nor a prompt`);
}
