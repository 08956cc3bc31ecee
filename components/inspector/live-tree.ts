import type { PatchBatch, SnapshotBatch } from "@/shared/inspector/activity-batches";
import { assembleTree, type NodeFacts, type TreeNodeShape } from "@/shared/inspector/tree-shape";
import type { InspectorTree, PendingSpawn } from "./types";

/** The tree the inspector draws, kept in the browser: the facts it was built from and the assembled nodes. */
export interface LiveTree extends InspectorTree {
  facts: ReadonlyMap<string, NodeFacts>;
  byId: ReadonlyMap<string, TreeNodeShape>;
}

function build(rootId: string, facts: Map<string, NodeFacts>, pending: PendingSpawn[], truncated: boolean, previous?: LiveTree): LiveTree {
  const nodes = assembleTree(rootId, facts.values(), previous?.byId);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  // Keep the pending list's identity when it did not change, so the visible rows are not recomputed for nothing.
  const samePending =
    previous && previous.pending.length === pending.length && previous.pending.every((p, i) => p === pending[i]);
  return { rootId, nodes, byId, facts, truncated, pending: samePending ? previous.pending : pending };
}

export type TreeSnapshot = Pick<SnapshotBatch, "rootId" | "facts" | "pending" | "truncated">;

export function fromSnapshot(s: TreeSnapshot, previous?: LiveTree): LiveTree {
  return build(s.rootId, new Map(s.facts.map((f) => [f.id, f])), s.pending, s.truncated, previous);
}

/**
 * The tree after some patches, in order: new facts replace old ones (a spawned child appears under its parent),
 * removed threads go, and each patch's pending spawns replace those of the parents it names. Nodes that did not
 * change keep their identity; roll-ups are recomputed over the whole tree (linear, cheap next to a render).
 */
export function applyPatches(tree: LiveTree, patches: readonly Pick<PatchBatch, "facts" | "removed" | "pendingOf" | "pending">[]): LiveTree {
  if (!patches.some((p) => p.facts.length > 0 || p.removed.length > 0 || p.pendingOf.length > 0)) return tree;
  const facts = new Map(tree.facts);
  let pending = tree.pending;
  for (const p of patches) {
    for (const f of p.facts) facts.set(f.id, f);
    for (const id of p.removed) facts.delete(id);
    if (p.pendingOf.length > 0) {
      const of = new Set(p.pendingOf);
      const kept = pending.filter((x) => !of.has(x.parentId));
      const unchanged = kept.length === pending.length && p.pending.length === 0;
      if (!unchanged) pending = [...kept, ...p.pending];
    }
  }
  return build(tree.rootId, facts, pending, tree.truncated, tree);
}
