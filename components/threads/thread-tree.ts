import type { ListedThread, ThreadNode } from "./types";

/**
 * Nest threads under their parents. Roots keep the server's order (most recent activity first); children are ordered
 * by creation. A thread whose parent is not in the list is a root.
 */
export function buildThreadTree(threads: readonly ListedThread[]): ThreadNode[] {
  const nodes = new Map(threads.map((t) => [t.id, { thread: t, children: [] as ThreadNode[] }]));
  const roots: ThreadNode[] = [];
  for (const t of threads) {
    const node = nodes.get(t.id)!;
    const parent = t.parent_id ? nodes.get(t.parent_id) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  for (const n of nodes.values()) n.children.sort((a, b) => a.thread.created_at.localeCompare(b.thread.created_at));
  return roots;
}

/** Depth-first, with each node's depth: the order rows are shown in. */
export function flattenTree(
  roots: readonly ThreadNode[],
  collapsed: ReadonlySet<string>,
): { node: ThreadNode; depth: number }[] {
  const out: { node: ThreadNode; depth: number }[] = [];
  const visit = (n: ThreadNode, depth: number) => {
    out.push({ node: n, depth });
    if (!collapsed.has(n.thread.id)) n.children.forEach((c) => visit(c, depth + 1));
  };
  roots.forEach((r) => visit(r, 0));
  return out;
}
