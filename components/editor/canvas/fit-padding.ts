import type { FitViewOptions } from "@xyflow/react";

type Padding = NonNullable<FitViewOptions["padding"]>;

/** The minimap's box in the bottom-right corner (React Flow's default size and margin) and the zoom controls' width. */
const MINIMAP = { width: 200 + 15, height: 150 + 15 };
const CONTROLS_WIDTH = 48;
const EDGE = 24;

/**
 * Padding for fitting the graph into the pane so that no node ends up under the minimap: keep clear of it along the
 * side where the graph leaves room anyway (a wide graph fits by its width, so the bottom strip is the cheap one to
 * give up; a tall one gives up the right strip). `bothSides`: clear of it along both (the fallback when one side was
 * not enough).
 */
export function fitPadding(graph: { width: number; height: number }, pane: { width: number; height: number }, bothSides = false): Padding {
  if (bothSides) return { top: `${EDGE}px`, left: `${CONTROLS_WIDTH}px`, right: `${MINIMAP.width}px`, bottom: `${MINIMAP.height}px` };
  const wide = graph.width / Math.max(1, graph.height) > pane.width / Math.max(1, pane.height);
  return wide
    ? { top: `${EDGE}px`, left: `${CONTROLS_WIDTH}px`, right: `${EDGE}px`, bottom: `${MINIMAP.height}px` }
    : { top: `${EDGE}px`, left: `${CONTROLS_WIDTH}px`, right: `${MINIMAP.width}px`, bottom: `${EDGE}px` };
}

/** Fit the graph clear of the minimap: one padded side first, both when a node would still sit under it. */
export async function fitClear(
  // Only the padding, duration and hidden-node options are passed: any node type's instance will do.
  flow: { fitView(o: FitViewOptions<any>): Promise<boolean>; getViewport(): { x: number; y: number; zoom: number } },
  boxes: { x: number; y: number; width: number; height: number }[],
  graph: { width: number; height: number },
  pane: { width: number; height: number },
): Promise<void> {
  await flow.fitView({ padding: fitPadding(graph, pane), duration: 0, includeHiddenNodes: true });
  // With room to spare: zoomed out, labels grow to stay legible (level of detail), so nodes end up taller than laid out.
  if (boxes.every((b) => inClearView(b, flow.getViewport(), pane, 32))) return;
  await flow.fitView({ padding: fitPadding(graph, pane, true), duration: 0, includeHiddenNodes: true });
}

/** Whether a node's box (flow coordinates) shows whole in the pane, outside the minimap's corner. */
export function inClearView(
  node: { x: number; y: number; width: number; height: number },
  viewport: { x: number; y: number; zoom: number },
  pane: { width: number; height: number },
  /** Extra room kept around the minimap (screen px). */
  margin = 0,
): boolean {
  const left = node.x * viewport.zoom + viewport.x;
  const top = node.y * viewport.zoom + viewport.y;
  const right = left + node.width * viewport.zoom;
  const bottom = top + node.height * viewport.zoom;
  if (left < 0 || top < 0 || right > pane.width || bottom > pane.height) return false;
  const underMinimap = right > pane.width - MINIMAP.width - margin && bottom > pane.height - MINIMAP.height - margin;
  return !underMinimap;
}

/** The ids of the nodes React Flow has in the DOM under `wrapper` (as of the last commit). */
export function mountedNodeIds(wrapper: HTMLElement | null): Set<string> {
  const out = new Set<string>();
  wrapper?.querySelectorAll<HTMLElement>(".react-flow__node[data-id]").forEach((el) => out.add(el.dataset.id!));
  return out;
}
