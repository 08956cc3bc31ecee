import type { GraphEdge, GraphNode } from "@/shared/graph-projection";

/**
 * The nodes hidden by collapsed subtrees: those reachable from a collapsed node that no other path reaches from the
 * graph's entry points (nodes nothing points to, the root agent) without passing through a collapsed node. Also
 * returns, per collapsed node, how many nodes it hides.
 */
export function hiddenByCollapse(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  collapsed: ReadonlySet<string>,
  rootId?: string,
): { hidden: Set<string>; hiddenCount: Map<string, number> } {
  const hidden = new Set<string>();
  const hiddenCount = new Map<string, number>();
  if (collapsed.size === 0) return { hidden, hiddenCount };
  const out = new Map<string, string[]>();
  const indegree = new Map<string, number>();
  for (const e of edges) {
    if (e.source === e.target) continue;
    out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
    indegree.set(e.target, (indegree.get(e.target) ?? 0) + 1);
  }
  const walk = (starts: string[], blockCollapsed: boolean): Set<string> => {
    const seen = new Set<string>();
    const stack = [...starts];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      if (blockCollapsed && collapsed.has(id)) continue;
      for (const next of out.get(id) ?? []) stack.push(next);
    }
    return seen;
  };
  const entries = nodes.filter((n) => !indegree.get(n.id) || n.id === rootId).map((n) => n.id);
  const free = walk(entries, true);
  // Nodes in cycles no entry reaches stay visible unless a collapsed node reaches them.
  const underCollapsed = new Set<string>();
  for (const c of collapsed) {
    const below = walk(out.get(c) ?? [], false);
    let count = 0;
    for (const id of below) {
      if (id === c || free.has(id)) continue;
      underCollapsed.add(id);
      count++;
    }
    hiddenCount.set(c, count);
  }
  for (const id of underCollapsed) if (!free.has(id)) hidden.add(id);
  return { hidden, hiddenCount };
}

/** A node and the nodes one edge away from it, either way (focus mode). */
export function neighbourhood(id: string, edges: readonly GraphEdge[]): Set<string> {
  const out = new Set([id]);
  for (const e of edges) {
    if (e.source === id) out.add(e.target);
    if (e.target === id) out.add(e.source);
  }
  return out;
}
