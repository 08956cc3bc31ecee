"use client";

import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type EdgeProps } from "@xyflow/react";
import { memo } from "react";
import type { GraphEdgeKind } from "@/shared/graph-projection";
import type { EditorFlowEdge } from "./edge-data";
import { subagentBadges } from "./subagent-mode";

// Solid strokes only: dashed curves are several times slower to rasterise without a GPU.
export const EDGE_STYLE: Record<GraphEdgeKind, { stroke: string; width?: number; opacity?: number }> = {
  side: { stroke: "#6366f1", width: 2 },
  model: { stroke: "#94a3b8", opacity: 0.55 },
  fallback: { stroke: "#64748b", opacity: 0.7 },
  tool: { stroke: "#10b981", opacity: 0.8 },
  subprompt: { stroke: "#0ea5e9", width: 1.5 },
  handoff: { stroke: "#f97316", width: 2 },
  subagent: { stroke: "#8b5cf6", width: 2.5 },
  include: { stroke: "#a8a29e", opacity: 0.7 },
  hook: { stroke: "#ec4899", opacity: 0.7 },
};

function label(kind: GraphEdgeKind, handle: string | null | undefined): string | undefined {
  if (kind === "side") return handle === "side-b" ? "side B" : "side A";
  if (kind === "handoff" || kind === "subprompt" || kind === "include" || kind === "fallback") return kind;
  return undefined;
}

/** An edge of the agent graph (orthogonal), coloured by kind; subagent edges carry their mode badges. */
export const GraphEdgeView = memo(function GraphEdgeView(props: EdgeProps<EditorFlowEdge>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, selected, markerEnd, sourceHandleId } = props;
  // Orthogonal: edges into a shared node (a tool many prompts offer) run together into one trunk above it.
  const [path, labelX, labelY] = getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius: 10, offset: 18 });
  if (!data) return <BaseEdge id={id} path={path} />;
  const kind = data.edge.kind;
  const style = EDGE_STYLE[kind];
  const text = label(kind, sourceHandleId);
  const badges = kind === "subagent" && data.edge.subagent ? subagentBadges(data.edge.subagent) : [];
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        style={{ stroke: style.stroke, strokeWidth: (style.width ?? 1.25) + (selected ? 1.5 : 0), strokeOpacity: data.dimmed ? 0.12 : selected ? 1 : (style.opacity ?? 1) }}
      />
      {(text || badges.length > 0) && !data.dimmed ? (
        <EdgeLabelRenderer>
          <div
            data-testid="edge-label"
            data-edge-kind={kind}
            data-source={data.sourceName}
            data-target={data.targetName}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            className={`nodrag nopan pointer-events-auto absolute flex max-w-56 flex-wrap justify-center gap-0.5 rounded border bg-white/95 px-1 py-0.5 text-[10px] leading-tight dark:bg-slate-900/95 ${selected ? "border-indigo-500" : "border-slate-200 dark:border-slate-700"}`}
          >
            {text ? <span className="text-slate-600 dark:text-slate-300">{text}</span> : null}
            {badges.map((b) => (
              <span key={b.text} title={b.title} data-testid="subagent-mode" className="rounded bg-violet-100 px-1 font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-200">
                {b.text}
              </span>
            ))}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});

export const edgeTypes = { graph: GraphEdgeView };
