"use client";

import type { Edge, Node, Viewport } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { mountedNodeIds } from "./fit-padding";

/** How far beyond each side of the pane nodes stay mounted (in panes), so that a short pan shows no blank edge. */
const MARGIN = 0.5;

/** Whether a node's box (flow coordinates) meets the pane widened by MARGIN at viewport `v`. */
export function nearView(box: { x: number; y: number; width: number; height: number }, v: Viewport, pane: { width: number; height: number }): boolean {
  const left = (-v.x - pane.width * MARGIN) / v.zoom;
  const top = (-v.y - pane.height * MARGIN) / v.zoom;
  const right = left + (pane.width * (1 + 2 * MARGIN)) / v.zoom;
  const bottom = top + (pane.height * (1 + 2 * MARGIN)) / v.zoom;
  return box.x + box.width >= left && box.x <= right && box.y + box.height >= top && box.y <= bottom;
}

/**
 * Which nodes of a large graph React Flow mounts. React Flow renders every node once before it knows its handles,
 * wherever it is, so culling by its own `onlyRenderVisibleElements` mounts the whole graph at the first paint (and
 * the overview then kept them all). Here a node out of view is `hidden` (never rendered) until the view comes near
 * it: in full detail, the nodes near the last settled viewport; in the overview, the ones mounted when it began (so
 * that panning it and crossing the threshold either way mount nothing). Small graphs are passed through as they are.
 */
export function useCulledNodes<N extends Node, E extends Edge>(options: {
  large: boolean;
  overview: boolean;
  nodes: N[];
  edges: E[];
  size: (node: N) => { width: number; height: number };
  wrapper: RefObject<HTMLDivElement | null>;
}): { nodes: N[]; edges: E[]; settle(viewport: Viewport): void } {
  const { large, overview, nodes, edges, size, wrapper } = options;
  // The initial viewport of React Flow until the first one settles (a fit, a search, the end of a move).
  const [view, setView] = useState<Viewport>({ x: 0, y: 0, zoom: 1 });
  const [frozen, setFrozen] = useState<Set<string> | null>(null);
  if (large && overview && !frozen) setFrozen(mountedNodeIds(wrapper.current));
  const inOverview = useRef(overview);
  useEffect(() => {
    inOverview.current = overview;
  }, [overview]);
  // Leaving the overview keeps what it had mounted until the view settles: the crossing itself mounts nothing, and
  // then only what is near the settled view mounts.
  const settle = useCallback((v: Viewport) => {
    setView((prev) => (prev.x === v.x && prev.y === v.y && prev.zoom === v.zoom ? prev : v));
    if (!inOverview.current) setFrozen(null);
  }, []);

  const culled = useMemo(() => {
    if (!large) return nodes;
    const pane = { width: wrapper.current?.clientWidth ?? 0, height: wrapper.current?.clientHeight ?? 0 };
    return nodes.map((n) => {
      const show = frozen ? frozen.has(n.id) : n.selected === true || nearView({ ...n.position, ...size(n) }, view, pane);
      return show === !n.hidden ? n : { ...n, hidden: !show };
    });
  }, [large, nodes, frozen, view, size, wrapper]);
  const culledEdges = useMemo(() => (frozen ? edges.filter((e) => frozen.has(e.source) && frozen.has(e.target)) : edges), [edges, frozen]);
  return { nodes: culled, edges: culledEdges, settle };
}
