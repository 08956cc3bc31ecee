import { normalizeSessionBinding } from "@/server/spec";
import type { Emit } from "../events/publisher";
import type { Stores, ThreadRecord } from "../ports";
import type { StepContext } from "../kernel/step-context";
import type { RuntimeDeps } from "../kernel/deps";
import type { ExecutedCall } from "../kernel/stop-rules";

/** Set this child's status in its parent's registry (sessionStatus binding, `state.setStatus`). */
export async function setChildStatus(deps: RuntimeDeps, childId: string, status: string): Promise<boolean> {
  const entry = await deps.persistence.subagents.get(childId);
  if (!entry) return false;
  await deps.events.commit(async (tx, emit) => {
    await tx.subagents.update(childId, { status });
    await emit(entry.parentId, { type: "subagent.updated", childId, name: entry.name, status, change: "status" });
  });
  return true;
}

/**
 * `sessionStatus` (spec §7.10): a successful call of the side's status tool updates the parent's registry status
 * with the mapped message, without ending anything.
 */
export async function applySessionStatus(deps: RuntimeDeps, thread: ThreadRecord, ctx: StepContext, calls: ExecutedCall[]): Promise<void> {
  if (!thread.parentId) return;
  const binding = normalizeSessionBinding(ctx.sideConfig.sessionStatus);
  if (!binding) return;
  for (const c of calls) {
    if (c.name !== binding.name || c.status !== "success") continue;
    const v = binding.messageProperty && c.args ? c.args[binding.messageProperty] : c.text;
    const status = typeof v === "string" ? v : JSON.stringify(v);
    if (status) await setChildStatus(deps, thread.id, status);
  }
}

/**
 * Keep a child's registry status in step with the thread (`running` ↔ `idle`) without overwriting a custom status
 * text or a final status (`failed`, `terminated`).
 */
export async function syncRegistryStatus(tx: Stores, emit: Emit, childId: string, from: "running" | "idle", to: "running" | "idle"): Promise<void> {
  const entry = await tx.subagents.get(childId);
  if (!entry || entry.status !== from) return;
  await tx.subagents.update(childId, { status: to });
  await emit(entry.parentId, { type: "subagent.updated", childId, name: entry.name, status: to, change: "status" });
}
