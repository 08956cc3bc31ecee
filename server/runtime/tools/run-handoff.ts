import type { ToolResult } from "@/server/spec";
import type { ResolvedToolEntry } from "../definitions";
import { toolError, type ToolCallContext } from "../kernel/tool-call-context";

/**
 * Handoff (design.md §4): an `ai_human` agent called as a tool by another `ai_human` agent takes over the same
 * thread; history is kept, and the next step runs the new agent's side A prompt.
 */
export async function runHandoff(tc: ToolCallContext, entry: ResolvedToolEntry): Promise<{ result: ToolResult; changed: boolean }> {
  const target = tc.ctx.defs.agent(entry.name);
  if (!target) return { result: toolError(`Cannot hand off to ${entry.name}: the agent is not defined.`), changed: false };
  if (target.type !== "ai_human") {
    return { result: toolError(`Cannot hand off to ${entry.name}: only ai_human agents take over a thread.`), changed: false };
  }
  const from = tc.thread.agentId;
  await tc.deps.events.commit(async (tx, emit) => {
    const fresh = await tx.threads.get(tc.thread.id);
    const state = fresh?.state ?? tc.thread.state;
    await tx.threads.update(tc.thread.id, {
      agentId: target.name,
      state: { ...state, immediateDone: [], promptActivation: (state.promptActivation ?? 0) + 1 },
    });
    await emit(tc.thread.id, { type: "thread.handoff", from, to: target.name });
  });
  return { result: { status: "success", result: "Handoff complete" }, changed: true };
}
