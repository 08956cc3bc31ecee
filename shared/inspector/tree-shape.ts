/**
 * The inspector tree's shape, shared by the server (the `inspector.tree` query) and the browser (which keeps the tree
 * live by applying node patches): per-node facts in, depth-first nodes with depth, child counts and usage roll-ups
 * out. Pure and import-free so the browser bundle can use it.
 */

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cost: number;
  requests: number;
}

/** What one thread of a tree is on its own (nothing derived from its relatives). */
export interface NodeFacts {
  id: string;
  parentId: string | null;
  agentId: string;
  agentTitle: string;
  /** Instance name (the registry's, else the thread's). */
  name: string | null;
  threadStatus: string;
  stopReason: string | null;
  /** Status in the parent's registry: running, idle, failed, terminated, or the child's own `sessionStatus` text. */
  registryStatus: string | null;
  customStatus: boolean;
  blocking: boolean | null;
  resumable: boolean | null;
  communication: "explicit" | "implicit" | null;
  immediate: boolean;
  optional: string | null;
  spawnGroupId: string | null;
  toolName: string | null;
  createdAt: number;
  lastActivityAt: number;
  own: Usage;
}

export interface TreeNodeShape extends NodeFacts {
  depth: number;
  childCount: number;
  descendants: number;
  subtree: Usage;
}

export const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cost: 0, requests: 0 });

const sameUsage = (a: Usage, b: Usage) =>
  a.inputTokens === b.inputTokens && a.outputTokens === b.outputTokens && a.cost === b.cost && a.requests === b.requests;

/** Field-by-field equality of two nodes (usage objects compared by value). */
export function sameNode(a: TreeNodeShape, b: TreeNodeShape): boolean {
  for (const k of Object.keys(a) as (keyof TreeNodeShape)[]) {
    if (k === "own" || k === "subtree") continue;
    if (a[k] !== b[k]) return false;
  }
  return sameUsage(a.own, b.own) && sameUsage(a.subtree, b.subtree);
}

const byAge = (a: NodeFacts, b: NodeFacts) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The tree under `rootId`, flattened depth first (children oldest first) with depth, child count, descendant count
 * and the usage roll-up of each subtree. Facts whose parent is not in the tree are left out. With `previous`, a node
 * equal to its previous version is that same object, so memoized rows skip it.
 */
export function assembleTree(
  rootId: string,
  facts: Iterable<NodeFacts>,
  previous?: ReadonlyMap<string, TreeNodeShape>,
): TreeNodeShape[] {
  const byId = new Map<string, NodeFacts>();
  for (const f of facts) byId.set(f.id, f);
  const root = byId.get(rootId);
  if (!root) return [];
  const kids = new Map<string, NodeFacts[]>();
  for (const f of byId.values()) {
    if (f.id === rootId || !f.parentId) continue;
    const list = kids.get(f.parentId);
    if (list) list.push(f);
    else kids.set(f.parentId, [f]);
  }
  for (const list of kids.values()) list.sort(byAge);

  // Depth-first order, iteratively (a deep tree must not overflow the stack); `seen` guards against a cycle.
  const order: { f: NodeFacts; depth: number }[] = [];
  const seen = new Set<string>();
  const stack: { f: NodeFacts; depth: number }[] = [{ f: root, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (seen.has(item.f.id)) continue;
    seen.add(item.f.id);
    order.push(item);
    const k = kids.get(item.f.id) ?? [];
    for (let i = k.length - 1; i >= 0; i--) stack.push({ f: k[i]!, depth: item.depth + 1 });
  }

  // Roll-ups bottom up: in depth-first order every descendant comes after its ancestor.
  const subtree = new Map<string, Usage>();
  const size = new Map<string, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const f = order[i]!.f;
    const s = { ...f.own };
    let n = 0;
    for (const k of kids.get(f.id) ?? []) {
      const ks = subtree.get(k.id);
      if (!ks) continue;
      s.inputTokens += ks.inputTokens;
      s.outputTokens += ks.outputTokens;
      s.cost += ks.cost;
      s.requests += ks.requests;
      n += 1 + size.get(k.id)!;
    }
    subtree.set(f.id, s);
    size.set(f.id, n);
  }

  return order.map(({ f, depth }) => {
    const node: TreeNodeShape = {
      ...f,
      parentId: f.id === rootId ? null : f.parentId,
      depth,
      childCount: kids.get(f.id)?.length ?? 0,
      descendants: size.get(f.id) ?? 0,
      subtree: subtree.get(f.id)!,
    };
    const before = previous?.get(f.id);
    return before && sameNode(before, node) ? before : node;
  });
}
