/**
 * Leaf folding for large graphs: the leaves of the spanning forest (mostly tools and models) do not go through ELK.
 * Each parent is laid out as one box big enough for itself and a grid of its leaves below it; the leaves are placed
 * in that grid afterwards. ELK then lays out about half as many nodes, and a prompt's own tools sit together under it.
 */
import type { Positions } from "./elk-layout";

interface Box {
  id: string;
  width: number;
  height: number;
  ports?: string[];
}

/** Gaps inside a folded box: between the parent and its grid, and between grid cells. */
const GAP_BELOW = 60;
const GAP_X = 24;
const GAP_Y = 28;
const MAX_COLUMNS = 4;

export interface Folded<N extends Box, E> {
  nodes: N[];
  edges: E[];
  /** Places the folded leaves from the positions of the boxes ELK returned. */
  unfold(positions: Positions): Positions;
}

export function foldLeaves<N extends Box, E extends { source: string; target: string }>(nodes: readonly N[], forest: readonly E[]): Folded<N, E> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = new Map<string, string[]>();
  for (const e of forest) children.set(e.source, [...(children.get(e.source) ?? []), e.target]);
  const grids = new Map<string, { leaves: N[]; columns: number; cellW: number; cellH: number; width: number }>();
  const folded = new Set<string>();
  for (const [parent, kids] of children) {
    const p = byId.get(parent);
    // A parent with ports (an agent's sides) keeps its children in ELK, so that side A stays on the left.
    if (!p || p.ports?.length) continue;
    const leaves = kids.filter((k) => !children.has(k)).map((k) => byId.get(k)!);
    if (leaves.length === 0) continue;
    const columns = Math.min(MAX_COLUMNS, leaves.length);
    const cellW = Math.max(...leaves.map((l) => l.width));
    const cellH = Math.max(...leaves.map((l) => l.height));
    grids.set(parent, { leaves, columns, cellW, cellH, width: columns * cellW + (columns - 1) * GAP_X });
    for (const l of leaves) folded.add(l.id);
  }
  const boxes = nodes
    .filter((n) => !folded.has(n.id))
    .map((n) => {
      const g = grids.get(n.id);
      if (!g) return n;
      const rows = Math.ceil(g.leaves.length / g.columns);
      return { ...n, width: Math.max(n.width, g.width), height: n.height + GAP_BELOW + rows * g.cellH + (rows - 1) * GAP_Y };
    });
  return {
    nodes: boxes,
    edges: forest.filter((e) => !folded.has(e.target)),
    unfold(positions) {
      const out: Positions = new Map(positions);
      for (const [parent, g] of grids) {
        const box = positions.get(parent);
        const p = byId.get(parent)!;
        if (!box) continue;
        const boxWidth = Math.max(p.width, g.width);
        out.set(parent, { x: box.x + (boxWidth - p.width) / 2, y: box.y });
        const left = box.x + (boxWidth - g.width) / 2;
        g.leaves.forEach((leaf, i) => {
          const col = i % g.columns;
          const row = Math.floor(i / g.columns);
          out.set(leaf.id, { x: left + col * (g.cellW + GAP_X) + (g.cellW - leaf.width) / 2, y: box.y + p.height + GAP_BELOW + row * (g.cellH + GAP_Y) });
        });
      }
      return out;
    },
  };
}
