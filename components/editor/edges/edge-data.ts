import type { Edge } from "@xyflow/react";
import type { GraphEdge } from "@/shared/graph-projection";

/** `dimmed`: focus mode, and the edge does not touch the focused node. */
export type EditorEdgeData = { edge: GraphEdge; sourceName: string; targetName: string; dimmed?: boolean };
export type EditorFlowEdge = Edge<EditorEdgeData, "graph">;
