import type { ThreadFactRow } from "@/server/db/queries/inspector-tree";
import type { NodeFacts } from "@/shared/inspector/tree-shape";
import type { App } from "../app-context";
import { configuredMode } from "./modes";

/** Registry statuses the runtime sets itself; anything else is a child's own `sessionStatus` text. */
const BUILT_IN = new Set(["running", "idle", "failed", "terminated"]);

/** Stored thread facts with what the definitions add: the agent's title and how the parent configured the child. */
function toFacts(app: App, rows: ThreadFactRow[]): NodeFacts[] {
  const snap = app.registry.current();
  return rows.map((r) => {
    const mode = configuredMode(snap, r.parentAgentId, r.agentId);
    const status = r.registryStatus;
    return {
      id: r.id,
      parentId: r.parentId,
      agentId: r.agentId,
      agentTitle: snap.agents.get(r.agentId)?.definition.title ?? r.agentId,
      name: r.entryName ?? r.threadName,
      threadStatus: r.status,
      stopReason: r.stopReason,
      registryStatus: status,
      customStatus: status !== null && !BUILT_IN.has(status),
      blocking: r.blocking,
      resumable: r.resumable,
      communication: status === null ? null : r.parentCommunication === "explicit" ? "explicit" : "implicit",
      immediate: mode.immediate,
      optional: mode.optional,
      spawnGroupId: r.spawnGroupId,
      toolName: r.toolName,
      createdAt: r.createdAt,
      lastActivityAt: r.lastActivityAt,
      own: { inputTokens: r.inputTokens, outputTokens: r.outputTokens, cost: r.cost, requests: r.requests },
    };
  });
}

/** The facts of every thread of a subtree in one SQL statement (root first is not guaranteed; see assembleTree). */
export async function subtreeFacts(app: App, rootId: string): Promise<{ facts: NodeFacts[]; truncated: boolean }> {
  const { rows, truncated } = await app.queries.inspectorTree.subtreeFacts(rootId);
  return { facts: toFacts(app, rows), truncated };
}

/** The facts of the given threads (those that exist), one statement per 500 ids. */
export async function factsOf(app: App, ids: readonly string[]): Promise<NodeFacts[]> {
  return toFacts(app, await app.queries.inspectorTree.factsOf(ids));
}
