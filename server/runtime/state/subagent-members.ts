import type { SubagentRegistryEntry } from "@/server/spec";
import { RuntimeError } from "../errors";
import type { SubagentRecord } from "../ports";
import type { StateScope } from "../kernel/deps";

/** A registry row in the spec's `SubagentRegistryEntry` shape. */
export function toRegistryEntry(r: SubagentRecord): SubagentRegistryEntry {
  return {
    reference: r.childId,
    name: r.name,
    ...(r.title ? { title: r.title } : {}),
    description: r.description,
    resumable: r.resumable,
    blocking: r.blocking,
    ...(r.threadName ? { threadName: r.threadName } : {}),
    ...(r.spawnGroupId ? { spawnGroupId: r.spawnGroupId } : {}),
    createdAt: r.createdAt,
    status: r.status,
    parentCommunication: r.parentCommunication,
  };
}

/** `children` (the registry as loaded for this scope) and `setStatus` (this thread's status in its parent's registry). */
export function subagentMembers(scope: StateScope): { children(): SubagentRegistryEntry[]; setStatus(status: string): Promise<void> } {
  return {
    children: () => (scope.children ?? []).map(toRegistryEntry),
    async setStatus(status) {
      if (!scope.thread.parentId || !(await scope.deps.capabilities.setChildStatus(scope.deps, scope.thread.id, status))) {
        throw new RuntimeError("NO_PARENT", `state.setStatus: thread ${scope.thread.id} has no parent thread (it is not a subagent)`);
      }
    },
  };
}
