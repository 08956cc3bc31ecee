import type { FitViewOptions } from "@xyflow/react";

type Padding = NonNullable<FitViewOptions["padding"]>;

/** The minimap's box in the bottom-right corner (React Flow's default size and margin) and the zoom controls' width. */
const MINIMAP = { width: 200 + 15, height: 150 + 15 };
const CONTROLS_WIDTH = 48;
const EDGE = 24;

/**
 * Padding for fitting the graph into the pane so that no node ends up under the minimap: keep clear of it along the
 * side where the graph leaves room anyway (a wide graph fits by its width, so the bottom strip is the cheap one to
 * give up; a tall one gives up the right strip).
 */
export function fitPadding(graph: { width: number; height: number }, pane: { width: number; height: number }): Padding {
  const wide = graph.width / Math.max(1, graph.height) > pane.width / Math.max(1, pane.height);
  return wide
    ? { top: `${EDGE}px`, left: `${CONTROLS_WIDTH}px`, right: `${EDGE}px`, bottom: `${MINIMAP.height}px` }
    : { top: `${EDGE}px`, left: `${CONTROLS_WIDTH}px`, right: `${MINIMAP.width}px`, bottom: `${EDGE}px` };
}

/** Whether a node's box (flow coordinates) shows whole in the pane, outside the minimap's corner. */
export function inClearView(node: { x: number; y: number; width: number; height: number }, viewport: { x: number; y: number; zoom: number }, pane: { width: number; height: number }): boolean {
  const left = node.x * viewport.zoom + viewport.x;
  const top = node.y * viewport.zoom + viewport.y;
  const right = left + node.width * viewport.zoom;
  const bottom = top + node.height * viewport.zoom;
  if (left < 0 || top < 0 || right > pane.width || bottom > pane.height) return false;
  const underMinimap = right > pane.width - MINIMAP.width && bottom > pane.height - MINIMAP.height;
  return !underMinimap;
}

/** The ids of the nodes React Flow has in the DOM under `wrapper` (as of the last commit). */
export function mountedNodeIds(wrapper: HTMLElement | null): Set<string> {
  const out = new Set<string>();
  wrapper?.querySelectorAll<HTMLElement>(".react-flow__node[data-id]").forEach((el) => out.add(el.dataset.id!));
  return out;
}
