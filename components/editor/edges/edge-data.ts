import type { Edge } from "@xyflow/react";
import type { GraphEdge } from "@/shared/graph-projection";

export type EditorEdgeData = { edge: GraphEdge; sourceName: string; targetName: string };
export type EditorFlowEdge = Edge<EditorEdgeData, "graph">;
