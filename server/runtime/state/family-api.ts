import type { ThreadState } from "@/server/spec";
import { redactForThread } from "../kernel/thread-secrets";
import { RuntimeError } from "../errors";
import { bareScope } from "../kernel/scope";
import type { StateScope } from "../kernel/deps";

/**
 * The thread-hierarchy members of `ThreadState`: the parent and children, parent notification and status. The child
 * registry itself lives in the subagents module, which extends these.
 */
export function familyApi(
  scope: StateScope,
  make: (s: StateScope) => ThreadState,
): Pick<ThreadState, "getChildThread" | "getParentThread" | "notifyParent"> {
  const { deps, thread } = scope;
  const noParent = (member: string) =>
    new RuntimeError("NO_PARENT", `state.${member}: thread ${thread.id} has no parent thread (it is not a subagent)`);
  return {
    async getChildThread(referenceId) {
      const child = await deps.persistence.threads.get(referenceId);
      return child && child.parentId === thread.id ? make(bareScope(deps, child)) : null;
    },
    async getParentThread() {
      if (!thread.parentId) return null;
      const parent = await deps.persistence.threads.get(thread.parentId);
      return parent ? make(bareScope(deps, parent)) : null;
    },
    async notifyParent(content) {
      if (!thread.parentId) throw noParent("notifyParent");
      // Masked with this thread's secrets: the parent (and its model) must not see them.
      content = await redactForThread(deps, thread, content);
      await deps.capabilities.enqueueMessage(deps, thread.parentId, { role: "user", content, silent: true, metadata: { subagent_id: thread.id, subagent_event: "notify" } });
    },
  };
}
