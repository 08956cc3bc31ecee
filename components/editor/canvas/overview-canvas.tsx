"use client";

import { useStoreApi } from "@xyflow/react";
import { useEffect, useMemo, useRef } from "react";
import type { GraphEdge, GraphNode } from "@/shared/graph-projection";
import { EDGE_STYLE } from "../edges/graph-edge";
import { NODE_WIDTH, nodeHeight } from "../layout/node-size";
import type { Positions } from "../layout/elk-layout";
import { MIN_SCREEN_PX } from "./text-detail";

/** Accent colours of the node kinds (the top border of a node, and the minimap). */
export const KIND_COLOR: Record<GraphNode["kind"], string> = {
  agent: "#6366f1",
  prompt: "#0ea5e9",
  model: "#64748b",
  tool: "#10b981",
  hook: "#ec4899",
  file: "#ef4444",
};

interface Props {
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  positions: Positions;
  selectedId: string | null;
  dark: boolean;
  /** Draw only while this returns true for the current zoom (the overview level of detail). */
  activeAt(zoom: number): boolean;
}

interface Scene {
  fills: Array<{ color: string; body: Path2D; accent: Path2D }>;
  strokes: Array<{ color: string; width: number; opacity: number; path: Path2D }>;
  labels: Array<{ text: string; x: number; y: number; width: number }>;
  selected: Path2D | null;
  /** Bounds of everything drawn, in flow coordinates. */
  bounds: { x: number; y: number; width: number; height: number };
}

/** Where a node's outgoing edge leaves it: bottom centre, or an agent side's handle. */
function sourcePoint(n: GraphNode, p: { x: number; y: number }, handle: string | undefined) {
  const w = NODE_WIDTH[n.kind];
  const sides = n.agent?.sides ?? [];
  const i = handle ? sides.findIndex((s) => `side-${s.key}` === handle) : -1;
  const x = i >= 0 ? p.x + (w * (i + 1)) / (sides.length + 1) : p.x + w / 2;
  return { x, y: p.y + nodeHeight(n) };
}

/** Paths in flow coordinates, built once per graph change; a frame only sets the transform and fills them. */
function buildScene(nodes: readonly GraphNode[], edges: readonly GraphEdge[], positions: Positions, selectedId: string | null): Scene {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const fills = new Map<string, { color: string; body: Path2D; accent: Path2D }>();
  const labels: Scene["labels"] = [];
  let selected: Path2D | null = null;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of nodes) {
    const p = positions.get(n.id);
    if (!p) continue;
    const w = NODE_WIDTH[n.kind];
    const h = nodeHeight(n);
    [minX, minY, maxX, maxY] = [Math.min(minX, p.x), Math.min(minY, p.y), Math.max(maxX, p.x + w), Math.max(maxY, p.y + h)];
    const color = n.issues.some((i) => i.severity === "error") ? "#ef4444" : KIND_COLOR[n.kind];
    let f = fills.get(color);
    if (!f) fills.set(color, (f = { color, body: new Path2D(), accent: new Path2D() }));
    f.body.rect(p.x, p.y, w, h);
    f.accent.rect(p.x, p.y, w, 8);
    labels.push({ text: n.name, x: p.x + 12, y: p.y + 36, width: w - 24 });
    if (n.id === selectedId) {
      selected = new Path2D();
      selected.rect(p.x - 6, p.y - 6, w + 12, h + 12);
    }
  }
  const strokes = new Map<string, Scene["strokes"][number]>();
  for (const e of edges) {
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    const ps = positions.get(e.source);
    const pt = positions.get(e.target);
    if (!s || !t || !ps || !pt) continue;
    const a = sourcePoint(s, ps, e.sourceHandle);
    const b = { x: pt.x + NODE_WIDTH[t.kind] / 2, y: pt.y };
    // The orthogonal route the DOM edges take (graph-edge.tsx): down, across at mid-height, down into the target.
    const midY = b.y >= a.y ? (a.y + b.y) / 2 : a.y + 18;
    const style = EDGE_STYLE[e.kind];
    let st = strokes.get(e.kind);
    if (!st) strokes.set(e.kind, (st = { color: style.stroke, width: style.width ?? 1.25, opacity: style.opacity ?? 1, path: new Path2D() }));
    st.path.moveTo(a.x, a.y);
    st.path.lineTo(a.x, midY);
    st.path.lineTo(b.x, midY);
    st.path.lineTo(b.x, b.y);
  }
  // A margin keeps strokes and selection rings inside.
  const bounds = Number.isFinite(minX) ? { x: minX - 40, y: minY - 40, width: maxX - minX + 80, height: maxY - minY + 80 } : { x: 0, y: 0, width: 0, height: 0 };
  return { fills: [...fills.values()], strokes: [...strokes.values()], labels, selected, bounds };
}

/** Largest bitmap (device pixels) kept for panning; beyond it each frame draws the paths again. */
const MAX_BITMAP_PIXELS = 12_000_000;

/** Draws the scene with `ctx`'s current transform (flow → device pixels); `scale` is device pixels per flow unit. */
function paint(ctx: CanvasRenderingContext2D, scene: Scene, scale: number, dark: boolean) {
  // At least one device pixel wide, however far out.
  const minWidth = 1 / scale;
  for (const s of scene.strokes) {
    ctx.globalAlpha = s.opacity;
    ctx.strokeStyle = s.color;
    ctx.lineWidth = Math.max(s.width, minWidth);
    ctx.stroke(s.path);
  }
  ctx.globalAlpha = 1;
  for (const f of scene.fills) {
    ctx.fillStyle = dark ? "#0f172a" : "#ffffff";
    ctx.fill(f.body);
    ctx.strokeStyle = f.color;
    ctx.lineWidth = Math.max(1, minWidth);
    ctx.stroke(f.body);
    ctx.fillStyle = f.color;
    ctx.fill(f.accent);
  }
  if (scene.selected) {
    ctx.strokeStyle = "#6366f1";
    ctx.lineWidth = Math.max(3, 2 * minWidth);
    ctx.stroke(scene.selected);
  }
  // Names at least MIN_SCREEN_PX tall on screen (never squeezed), and only when a few characters fit the node.
  const zoom = scale / (window.devicePixelRatio || 1);
  const font = Math.max(16, MIN_SCREEN_PX / zoom);
  ctx.fillStyle = dark ? "#f1f5f9" : "#0f172a";
  ctx.font = `600 ${font}px ui-monospace, monospace`;
  for (const l of scene.labels) {
    const fits = Math.floor(l.width / (0.62 * font));
    if (fits < 4) continue;
    ctx.fillText(l.text.length > fits ? `${l.text.slice(0, fits - 1)}…` : l.text, l.x, l.y - 16 + font);
  }
}

/**
 * The overview of a large graph when zoomed out: every node and edge drawn on one canvas, redrawn per frame from
 * cached paths (or, panning at a steady zoom, copied from one bitmap). It is shown by the wrapper's data-lod; while
 * it shows, the DOM nodes and edges are hidden (display: none), so that panning and zooming
 * do not repaint, re-rasterise and hit-test hundreds of elements per frame.
 */
export function OverviewCanvas({ nodes, edges, positions, selectedId, dark, activeAt }: Props) {
  const store = useStoreApi();
  const ref = useRef<HTMLCanvasElement>(null);
  const scene = useMemo(() => buildScene(nodes, edges, positions, selectedId), [nodes, edges, positions, selectedId]);

  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    let lastScale = 0;
    let bitmap: { canvas: HTMLCanvasElement; scale: number } | null = null;
    const draw = () => {
      const { transform, width, height } = store.getState();
      const [x, y, zoom] = transform;
      const ratio = window.devicePixelRatio || 1;
      // Out of the overview, the last frame stays until the wrapper's data-lod hides the canvas (see GraphCanvas).
      if (!activeAt(zoom)) return;
      if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
        canvas.width = Math.round(width * ratio);
        canvas.height = Math.round(height * ratio);
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      const scale = zoom * ratio;
      const { bounds } = scene;
      // Panning at a steady zoom: the whole graph is drawn once into a bitmap, and each frame only copies it.
      // While the zoom changes, each frame draws the paths (a bitmap per zoom step would cost more).
      const steady = scale === lastScale;
      lastScale = scale;
      if (steady && bitmap?.scale !== scale && bounds.width * bounds.height * scale * scale <= MAX_BITMAP_PIXELS) {
        const b = document.createElement("canvas");
        b.width = Math.ceil(bounds.width * scale);
        b.height = Math.ceil(bounds.height * scale);
        const bctx = b.getContext("2d");
        if (bctx) {
          bctx.setTransform(scale, 0, 0, scale, -bounds.x * scale, -bounds.y * scale);
          paint(bctx, scene, scale, dark);
          bitmap = { canvas: b, scale };
        }
      }
      if (bitmap?.scale === scale) {
        ctx.drawImage(bitmap.canvas, Math.round(x * ratio + bounds.x * scale), Math.round(y * ratio + bounds.y * scale));
      } else {
        ctx.setTransform(scale, 0, 0, scale, x * ratio, y * ratio);
        paint(ctx, scene, scale, dark);
      }
    };
    draw();
    let last = store.getState().transform;
    let lastSize = `${store.getState().width}x${store.getState().height}`;
    return store.subscribe((state) => {
      const size = `${state.width}x${state.height}`;
      if (state.transform === last && size === lastSize) return;
      last = state.transform;
      lastSize = size;
      draw();
    });
  }, [store, scene, dark, activeAt]);

  return <canvas ref={ref} aria-hidden="true" data-testid="overview-canvas" className="pointer-events-none absolute inset-0 z-[3] h-full w-full" />;
}
