"use client";

import type { Viewport } from "@xyflow/react";
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { applyTextDetail, TEXT_DETAIL_CSS } from "./text-detail";

/** Below this zoom, a large graph shows as the overview canvas (see CANVAS_CSS). */
export const LOW_DETAIL_ZOOM = 0.4;
/** Graphs up to this many nodes always render in full detail: they are cheap to draw at any zoom. */
export const LOD_MIN_NODES = 80;

/*
 * Level of detail (large graphs only): zoomed out, the overview canvas draws every node and edge, and the DOM nodes,
 * edges and labels are not displayed (all stay mounted then, so that panning does not mount nodes at the edges of
 * the view). Software rasterising (headless Chromium has no GPU) would otherwise repaint, re-rasterise and hit-test
 * hundreds of elements per frame. While the viewport moves, it is a layer of its own (moving it does not re-rasterise
 * what it holds; zooming shows it scaled until the move ends) and edges take no pointer events (hit-testing wide
 * bezier strokes at every mouse move costs more than drawing them). Large graphs have no dotted background: the
 * pattern moves with the viewport and is re-rasterised over the whole pane at every frame.
 */
export const CANVAS_CSS = `
[data-editor-canvas][data-lod="low"] .react-flow__nodes,
[data-editor-canvas][data-lod="low"] .react-flow__edges,
[data-editor-canvas][data-lod="low"] .react-flow__edgelabel-renderer,
[data-editor-canvas][data-lod="high"] [data-testid="overview-canvas"],
[data-editor-canvas][data-lod="low"] .react-flow__minimap { display: none; }
[data-editor-canvas][data-moving] .react-flow__viewport { will-change: transform; }
[data-editor-canvas][data-moving] .react-flow__edge,
[data-editor-canvas][data-moving] .react-flow__edge *,
[data-editor-canvas][data-moving] [data-testid="edge-label"] { pointer-events: none !important; }
[data-editor-canvas] .react-flow__node:has([data-issues-open]) { z-index: 1000 !important; }
${TEXT_DETAIL_CSS}`;

/** The level of detail of the canvas: which zoom shows the overview, and the wrapper attributes CANVAS_CSS reads. */
export function useLevelOfDetail(large: boolean, wrapper: RefObject<HTMLDivElement | null>) {
  const lod = useRef<"high" | "low">("high");
  // The same as a state, for the one prop that depends on it (see onlyRenderVisibleElements).
  const [overview, setOverview] = useState(false);
  // Decides the level of detail for a zoom (with a margin either side of the threshold, so that zooming around it
  // does not switch back and forth); the overview canvas and onMove both ask it. The wrapper's data-lod (which shows
  // the canvas or the DOM) flips to the overview at once, and back to full detail only after React has rendered
  // without the nodes out of view: otherwise all of them would be styled and laid out for one frame.
  const overviewAt = useCallback(
    (zoom: number) => {
      const threshold = LOW_DETAIL_ZOOM * (lod.current === "low" ? 1.1 : 0.9);
      const next = large && zoom < threshold ? "low" : "high";
      if (next !== lod.current) {
        lod.current = next;
        if (next === "low") wrapper.current?.setAttribute("data-lod", "low");
        setOverview(next === "low");
      }
      return next === "low";
    },
    [large],
  );
  useLayoutEffect(() => {
    if (!overview) wrapper.current?.setAttribute("data-lod", "high");
  }, [overview]);
  const onMove = useCallback(
    (_: unknown, viewport: Viewport) => {
      applyTextDetail(wrapper.current, viewport.zoom);
      overviewAt(viewport.zoom);
    },
    [overviewAt],
  );
  const onMoveStart = useCallback(() => wrapper.current?.setAttribute("data-moving", ""), []);
  const onMoveEnd = useCallback(
    (event: unknown, viewport: Viewport) => {
      wrapper.current?.removeAttribute("data-moving");
      wrapper.current?.setAttribute("data-zoom", viewport.zoom.toFixed(3));
      onMove(event, viewport);
    },
    [onMove],
  );
  return { lod, overview, overviewAt, onMove, onMoveStart, onMoveEnd };
}
