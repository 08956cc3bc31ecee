import type { InspectorTree, PendingSpawn, TreeNode } from "./types";

export type TreeRow =
  | { kind: "node"; node: TreeNode; depth: number }
  | { kind: "pending"; pending: PendingSpawn; depth: number };

/**
 * The rows to draw: nodes in depth-first order without the descendants of collapsed nodes, and each open
 * scoped-variable request as a row right under the thread that asked for it.
 */
export function visibleRows(tree: Pick<InspectorTree, "nodes" | "pending">, collapsed: ReadonlySet<string>): TreeRow[] {
  const pendingBy = new Map<string, PendingSpawn[]>();
  for (const p of tree.pending) pendingBy.set(p.parentId, [...(pendingBy.get(p.parentId) ?? []), p]);
  const rows: TreeRow[] = [];
  let hideDeeperThan = Infinity;
  for (const node of tree.nodes) {
    if (node.depth > hideDeeperThan) continue;
    hideDeeperThan = Infinity;
    rows.push({ kind: "node", node, depth: node.depth });
    if (collapsed.has(node.id)) {
      hideDeeperThan = node.depth;
      continue;
    }
    for (const p of pendingBy.get(node.id) ?? []) rows.push({ kind: "pending", pending: p, depth: node.depth + 1 });
  }
  return rows;
}

/** Statuses with a meaning of their own; anything else is a child's custom `sessionStatus` text. */
export type StatusTone = "running" | "idle" | "failed" | "terminated" | "custom";

export function statusTone(node: Pick<TreeNode, "registryStatus" | "threadStatus" | "customStatus">): StatusTone {
  if (node.customStatus) return "custom";
  const s = node.registryStatus ?? node.threadStatus;
  return s === "running" || s === "idle" || s === "failed" || s === "terminated" ? s : "custom";
}

export function statusLabel(node: Pick<TreeNode, "registryStatus" | "threadStatus">): string {
  const s = node.registryStatus ?? node.threadStatus;
  return s === "idle" ? "idle" : s;
}

/** "12 s", "4 min", "3 h", "2 d". */
export function age(from: number, now: number): string {
  const s = Math.max(0, Math.round((now - from) / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} d`;
}
