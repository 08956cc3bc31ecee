import { describe, expect, it } from "vitest";
import { foldLeaves } from "./leaf-grid";

const node = (id: string, width = 200, height = 80, ports?: string[]) => ({ id, width, height, ...(ports ? { ports } : {}) });

describe("foldLeaves", () => {
  const nodes = [node("agent", 300, 140, ["side-a"]), node("p1", 280, 92), node("p2", 280, 92), node("t1", 230, 70), node("t2", 230, 70), node("t3", 230, 70), node("m", 220, 78)];
  const forest = [
    { source: "agent", target: "p1" },
    { source: "p1", target: "p2" },
    { source: "p1", target: "t1" },
    { source: "p2", target: "t2" },
    { source: "p2", target: "t3" },
    { source: "p2", target: "m" },
  ];

  it("lays out parents as boxes holding a grid of their leaves, and only those edges go to ELK", () => {
    const folded = foldLeaves(nodes, forest);
    expect(folded.nodes.map((n) => n.id)).toEqual(["agent", "p1", "p2"]);
    expect(folded.edges).toEqual([forest[0], forest[1]]);
    const p2 = folded.nodes.find((n) => n.id === "p2")!;
    // Three leaves in one row of 230-wide cells with 24 between; one row of 78 below a 60 gap.
    expect(p2).toMatchObject({ width: 3 * 230 + 2 * 24, height: 92 + 60 + 78 });
    // The agent keeps its children in ELK: its side ports order them.
    expect(folded.nodes.find((n) => n.id === "agent")).toMatchObject({ width: 300, height: 140 });
  });

  it("places each leaf under its parent, the parent centred over its grid, without overlaps", () => {
    const folded = foldLeaves(nodes, forest);
    const boxes = new Map([
      ["agent", { x: 0, y: 0 }],
      ["p1", { x: 0, y: 300 }],
      ["p2", { x: 0, y: 600 }],
    ]);
    const out = folded.unfold(boxes);
    expect(out.size).toBe(nodes.length);
    const width = 3 * 230 + 2 * 24;
    expect(out.get("p2")).toEqual({ x: (width - 280) / 2, y: 600 });
    expect(out.get("t2")).toEqual({ x: 0, y: 600 + 92 + 60 });
    expect(out.get("t3")).toEqual({ x: 254, y: 752 });
    expect(out.get("m")).toEqual({ x: 508 + 5, y: 752 });
    expect(out.get("t1")!.y).toBe(300 + 92 + 60);
  });
});
