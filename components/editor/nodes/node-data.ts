import type { Node } from "@xyflow/react";
import type { GraphNode } from "@/shared/graph-projection";

/** What a canvas node carries: the projected node, and its collapse state. */
export type EditorNodeData = {
  node: GraphNode;
  collapsed: boolean;
  hiddenCount: number;
  /** True when the node has outgoing edges (something to collapse). */
  hasChildren: boolean;
  highlighted: boolean;
  /** Focus mode: this node is not the focused node or one of its neighbours. */
  dimmed?: boolean;
};

export type EditorFlowNode = Node<EditorNodeData, GraphNode["kind"]>;
