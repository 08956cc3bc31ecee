/**
 * Layout that stays put: after the first layout, a node keeps the place it has (where ELK put it, or where the user
 * dragged it); only nodes that have no place yet are placed. A new node goes where the fresh ELK layout puts it
 * relative to a neighbour that already has a place, else below everything; then it moves down until it overlaps
 * nothing. Places of hidden nodes are remembered, so a collapsed subtree comes back where it was.
 */
import type { Positions } from "./elk-layout";

export interface SizedNode {
  id: string;
  width: number;
  height: number;
}

const MARGIN = 24;
const MAX_TRIES = 200;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width + MARGIN && b.x < a.x + a.width + MARGIN && a.y < b.y + b.height + MARGIN && b.y < a.y + a.height + MARGIN;

/**
 * The positions to show: `previous` for every node that has one, and a place for each node of `nodes` that has none,
 * derived from `fresh` (a complete layout of the current structure). With no previous positions, `fresh` as it is.
 * Returns the ids of the nodes placed now, too.
 */
export function keepPlaced(
  previous: Positions,
  fresh: Positions,
  nodes: readonly SizedNode[],
  edges: ReadonlyArray<{ source: string; target: string }>,
): { positions: Positions; placed: string[] } {
  const visiblePlaced = nodes.filter((n) => previous.has(n.id));
  if (visiblePlaced.length === 0) return { positions: new Map([...previous, ...fresh]), placed: [] };
  const out: Positions = new Map(previous);
  const sizes = new Map(nodes.map((n) => [n.id, n]));
  const rects: Rect[] = visiblePlaced.map((n) => ({ ...previous.get(n.id)!, width: n.width, height: n.height }));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  const left = Math.min(...rects.map((r) => r.x));
  const freshLeft = Math.min(...[...fresh.values()].map((p) => p.x));
  const neighbours = new Map<string, string[]>();
  for (const e of edges) {
    neighbours.set(e.target, [...(neighbours.get(e.target) ?? []), e.source]);
    neighbours.set(e.source, [...(neighbours.get(e.source) ?? []), e.target]);
  }
  const placed: string[] = [];
  // Nodes nearer the placed ones first, so that a chain of new nodes hangs off its placed end.
  let queue = nodes.filter((n) => !out.has(n.id));
  while (queue.length > 0) {
    const next = queue.find((n) => (neighbours.get(n.id) ?? []).some((m) => out.has(m) && fresh.has(m))) ?? queue[0]!;
    queue = queue.filter((n) => n !== next);
    const at = fresh.get(next.id) ?? { x: 0, y: 0 };
    const anchor = (neighbours.get(next.id) ?? []).find((m) => out.has(m) && fresh.has(m));
    let pos = anchor
      ? { x: out.get(anchor)!.x + at.x - fresh.get(anchor)!.x, y: out.get(anchor)!.y + at.y - fresh.get(anchor)!.y }
      : { x: left + (at.x - freshLeft), y: bottom + 80 };
    const size = sizes.get(next.id)!;
    for (let i = 0; i < MAX_TRIES && rects.some((r) => overlaps(r, { ...pos, width: size.width, height: size.height })); i++) {
      pos = { x: pos.x, y: pos.y + size.height / 2 + MARGIN };
    }
    out.set(next.id, pos);
    rects.push({ ...pos, width: size.width, height: size.height });
    placed.push(next.id);
  }
  return { positions: out, placed };
}
