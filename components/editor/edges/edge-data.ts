import type { Edge } from "@xyflow/react";
import type { GraphEdge } from "@/server/registry/graph-projection";

export type EditorEdgeData = { edge: GraphEdge; sourceName: string; targetName: string };
export type EditorFlowEdge = Edge<EditorEdgeData, "graph">;
