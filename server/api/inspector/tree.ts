import type { PendingSpawnView } from "@/shared/inspector/activity-batches";
import { assembleTree, type NodeFacts } from "@/shared/inspector/tree-shape";
import type { App } from "../app-context";
import { subtreeFacts } from "./node-facts";

/** Open scoped-variable requests of these threads: spawns that wait for variables, shown under their parent. */
export async function pendingSpawns(app: App, parentIds: string[]): Promise<PendingSpawnView[]> {
  const rows = await app.queries.openVariableRequests(parentIds);
  return rows.map((p) => ({
    requestId: p.id,
    parentId: p.parentThreadId,
    agent: p.agent,
    name: p.threadName,
    missing: p.missing,
    required: p.required,
    createdAt: p.createdAt.getTime(),
  }));
}

/** The facts of a subtree and its pending spawns: what the browser assembles and then keeps live with patches. */
export async function treeSnapshot(app: App, rootId: string): Promise<{ rootId: string; facts: NodeFacts[]; pending: PendingSpawnView[]; truncated: boolean }> {
  await app.runtime.getThread(rootId);
  const { facts, truncated } = await subtreeFacts(app, rootId);
  const pending = await pendingSpawns(app, facts.map((f) => f.id));
  return { rootId, facts, pending, truncated };
}

/**
 * The live tree of a thread's descendants, flattened depth first (children in creation order): each node with its
 * agent, instance name, thread status, status in its parent's registry, mode, spawn group, its own tokens and cost
 * and the roll-up over its subtree. Open scoped-variable requests are listed as pending spawns under their parent.
 * Two SQL statements whatever the tree's size and depth (a recursive query for the threads, one for the requests).
 */
export async function inspectorTree(app: App, rootId: string) {
  const snap = await treeSnapshot(app, rootId);
  return { rootId, nodes: assembleTree(rootId, snap.facts), truncated: snap.truncated, pending: snap.pending };
}

export type InspectorTree = Awaited<ReturnType<typeof inspectorTree>>;
