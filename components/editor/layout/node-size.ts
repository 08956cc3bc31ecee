import type { GraphNode } from "@/shared/graph-projection";

/** Node widths (px); node components use the same, so that the layout matches what is drawn. */
export const NODE_WIDTH: Record<GraphNode["kind"], number> = {
  agent: 300,
  prompt: 280,
  model: 220,
  tool: 230,
  hook: 210,
  file: 240,
};

/** An estimate of a node's height from its content (the layout needs it before the node is drawn). */
export function nodeHeight(node: GraphNode): number {
  const issues = node.issues.length > 0 ? 26 : 0;
  switch (node.kind) {
    case "agent":
      return 64 + (node.agent?.sides.length ?? 1) * 74 + issues;
    case "prompt": {
      const p = node.prompt;
      const extra = (p?.includes.length ? 18 : 0) + (p?.variables.length || p?.envParts.length ? 18 : 0) + (p?.runtimeTools.length ? 18 : 0);
      return 92 + extra + issues;
    }
    case "model":
      return 78 + issues;
    case "tool":
      return 70 + (node.tool?.lifecycle.length ? 18 : 0) + issues;
    default:
      return 64 + issues;
  }
}
