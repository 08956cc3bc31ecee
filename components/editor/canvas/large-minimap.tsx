"use client";

import { Panel, useReactFlow, useStore } from "@xyflow/react";
import { useEffect, useMemo, useRef, type MouseEvent } from "react";
import type { GraphNode } from "@/shared/graph-projection";
import type { Positions } from "../layout/elk-layout";
import { NODE_WIDTH, nodeHeight } from "../layout/node-size";
import { KIND_COLOR } from "./overview-canvas";

const WIDTH = 200;
const HEIGHT = 150;

/**
 * The minimap of a large graph, drawn on a canvas from the laid-out positions: React Flow's own minimap draws only
 * the nodes it renders, and a large graph renders only those near the view (see use-culled-nodes.ts). A click
 * centres the view there.
 */
export function LargeMiniMap({ nodes, positions, dark }: { nodes: readonly GraphNode[]; positions: Positions; dark: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const flow = useReactFlow();
  const transform = useStore((s) => s.transform);
  const pane = useStore((s) => ({ width: s.width, height: s.height }), (a, b) => a.width === b.width && a.height === b.height);
  const boxes = useMemo(
    () => nodes.flatMap((n) => (positions.has(n.id) ? [{ ...positions.get(n.id)!, width: NODE_WIDTH[n.kind], height: nodeHeight(n), color: KIND_COLOR[n.kind] }] : [])),
    [nodes, positions],
  );
  const frame = useMemo(() => {
    if (boxes.length === 0) return null;
    const x = Math.min(...boxes.map((b) => b.x));
    const y = Math.min(...boxes.map((b) => b.y));
    const w = Math.max(...boxes.map((b) => b.x + b.width)) - x;
    const h = Math.max(...boxes.map((b) => b.y + b.height)) - y;
    const scale = Math.min(WIDTH / w, HEIGHT / h) * 0.94;
    return { x, y, scale, dx: (WIDTH - w * scale) / 2, dy: (HEIGHT - h * scale) / 2 };
  }, [boxes]);

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    ctx.fillStyle = dark ? "#0f172a" : "#ffffff";
    ctx.fillRect(0, 0, WIDTH, HEIGHT);
    if (!frame) return;
    const at = (x: number, y: number) => [frame.dx + (x - frame.x) * frame.scale, frame.dy + (y - frame.y) * frame.scale] as const;
    for (const b of boxes) {
      const [x, y] = at(b.x, b.y);
      ctx.fillStyle = b.color;
      ctx.fillRect(x, y, Math.max(1, b.width * frame.scale), Math.max(1, b.height * frame.scale));
    }
    const [tx, ty, zoom] = transform;
    const [vx, vy] = at(-tx / zoom, -ty / zoom);
    ctx.strokeStyle = dark ? "#e2e8f0" : "#334155";
    ctx.lineWidth = 1.5;
    ctx.strokeRect(vx, vy, (pane.width / zoom) * frame.scale, (pane.height / zoom) * frame.scale);
  }, [boxes, frame, transform, pane, dark]);

  const onClick = (e: MouseEvent<HTMLCanvasElement>) => {
    if (!frame) return;
    const r = e.currentTarget.getBoundingClientRect();
    const x = frame.x + (e.clientX - r.left - frame.dx) / frame.scale;
    const y = frame.y + (e.clientY - r.top - frame.dy) / frame.scale;
    void flow.setCenter(x, y, { zoom: transform[2], duration: 200 });
  };

  return (
    <Panel position="bottom-right" className="react-flow__minimap" style={{ width: WIDTH, height: HEIGHT }}>
      <canvas ref={canvas} width={WIDTH} height={HEIGHT} role="img" aria-label="Overview of the graph" data-testid="large-minimap" data-node-count={boxes.length} onClick={onClick} className="cursor-pointer rounded border border-slate-200 dark:border-slate-700" />
    </Panel>
  );
}
