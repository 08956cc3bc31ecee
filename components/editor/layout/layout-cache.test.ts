import { describe, expect, it } from "vitest";
import { cachedLayout, layoutKey, storeLayout } from "./layout-cache";

const input = {
  nodes: [
    { id: "agent:a", width: 300, height: 140, ports: ["side-a"] },
    { id: "prompt:p", width: 280, height: 92 },
  ],
  edges: [{ id: "e", source: "agent:a", target: "prompt:p", sourcePort: "side-a" }],
};

describe("layout cache", () => {
  it("keys by structure: same nodes, sizes, ports and edges give the same key; any change gives another", () => {
    expect(layoutKey(structuredClone(input))).toBe(layoutKey(input));
    const taller = { ...input, nodes: [input.nodes[0]!, { ...input.nodes[1]!, height: 110 }] };
    const otherPort = { ...input, edges: [{ ...input.edges[0]!, sourcePort: "side-b" }] };
    const noEdge = { ...input, edges: [] };
    const keys = new Set([layoutKey(input), layoutKey(taller), layoutKey(otherPort), layoutKey(noEdge)]);
    expect(keys.size).toBe(4);
  });

  it("returns stored positions for the key (in memory when there is no localStorage)", () => {
    const key = layoutKey(input);
    expect(cachedLayout(key)).toBeNull();
    const positions = new Map([
      ["agent:a", { x: 0, y: 0 }],
      ["prompt:p", { x: 10, y: 210 }],
    ]);
    storeLayout(key, positions);
    expect(cachedLayout(key)).toEqual(positions);
  });
});
