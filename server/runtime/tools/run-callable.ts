import { normalizeToolReturn, type ToolResult } from "@/server/spec";
import { redactText } from "../env/redact";
import { threadSecrets } from "../kernel/thread-secrets";
import type { ResolvedToolEntry } from "../definitions";
import { createThreadState } from "../state/thread-state";
import { limitToUses } from "../state/uses";
import { toolError, type ToolCallContext } from "../kernel/tool-call-context";

/** A callable tool: validate the arguments with its zod schema, run it; a throw becomes a tool error. */
export async function runCallable(tc: ToolCallContext, entry: Extract<ResolvedToolEntry, { kind: "tool" }>, args: Record<string, unknown>): Promise<ToolResult> {
  const tool = tc.ctx.defs.tool(entry.name);
  if (!tool) return toolError(`Tool ${entry.name} is not available: its definition failed to load.`);
  let parsed: Record<string, unknown> = args;
  if (tool.args) {
    const schema = tool.args as { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
    const r = schema.safeParse(args);
    if (!r.success) {
      const issues = (r.error?.issues ?? []).map((i) => `${i.path.map(String).join(".") || "(arguments)"}: ${i.message}`).join("; ");
      return toolError(`Invalid arguments for ${entry.name}: ${issues}. Fix the arguments and call it again.`, { error_code: "invalid_arguments" });
    }
    parsed = (r.data ?? {}) as Record<string, unknown>;
  }
  const scope = { ...tc, toolConfigEnv: entry.config.env, options: entry.config.options, pending: [] as Promise<unknown>[] };
  const state = limitToUses(createThreadState(scope), tool.uses, entry.name);
  try {
    const result = normalizeToolReturn(await tool.execute(state, parsed));
    await Promise.all(scope.pending);
    return result;
  } catch (err) {
    // Masked before it is logged (the tool error itself is masked again with the result).
    const raw = err instanceof Error ? err.message : String(err);
    const message = redactText(raw, [...tc.ctx.secrets, ...(await threadSecrets(tc.deps, tc.thread))]);
    tc.deps.log("warn", `tool ${entry.name} threw`, { threadId: tc.thread.id, error: message });
    return toolError(`Tool ${entry.name} failed: ${message}`, { error_code: "tool_exception" });
  }
}
