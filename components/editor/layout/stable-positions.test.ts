import { describe, expect, it } from "vitest";
import type { Positions } from "./elk-layout";
import { keepPlaced } from "./stable-positions";

const node = (id: string) => ({ id, width: 200, height: 80 });
const pos = (entries: Array<[string, number, number]>): Positions => new Map(entries.map(([id, x, y]) => [id, { x, y }]));

describe("stable layout", () => {
  it("uses the fresh layout when nothing was placed yet", () => {
    const fresh = pos([["a", 0, 0], ["b", 0, 150]]);
    expect(keepPlaced(new Map(), fresh, [node("a"), node("b")], [{ source: "a", target: "b" }])).toEqual({ positions: fresh, placed: [] });
  });

  it("keeps every placed node where it is when a save or an edit re-runs the layout (ELK moved them all)", () => {
    const previous = pos([["agent", 500, 0], ["prompt", 500, 150], ["tool", 300, 300]]);
    const fresh = pos([["agent", 0, 0], ["prompt", 40, 160], ["tool", 0, 330]]);
    const { positions, placed } = keepPlaced(previous, fresh, [node("agent"), node("prompt"), node("tool")], []);
    expect(positions).toEqual(previous);
    expect(placed).toEqual([]);
  });

  it("places a new node relative to a placed neighbour as the fresh layout does, and only that node", () => {
    const previous = pos([["prompt", 1000, 500]]);
    const fresh = pos([["prompt", 0, 0], ["tool", 260, 150]]);
    const { positions, placed } = keepPlaced(previous, fresh, [node("prompt"), node("tool")], [{ source: "prompt", target: "tool" }]);
    expect(positions.get("prompt")).toEqual({ x: 1000, y: 500 });
    expect(positions.get("tool")).toEqual({ x: 1260, y: 650 });
    expect(placed).toEqual(["tool"]);
  });

  it("moves a new node down until it overlaps no placed node", () => {
    const previous = pos([["prompt", 0, 0], ["other", 0, 150]]);
    const fresh = pos([["prompt", 0, 0], ["tool", 0, 150]]);
    const { positions } = keepPlaced(previous, fresh, [node("prompt"), node("other"), node("tool")], [{ source: "prompt", target: "tool" }]);
    const tool = positions.get("tool")!;
    expect(tool.x).toBe(0);
    expect(tool.y).toBeGreaterThanOrEqual(150 + 80 + 24);
  });

  it("puts a new node with no placed neighbour below everything, and remembers hidden nodes' places", () => {
    const previous = pos([["a", 100, 0], ["hidden", 900, 900]]);
    const fresh = pos([["a", 0, 0], ["lonely", 300, 0]]);
    const { positions, placed } = keepPlaced(previous, fresh, [node("a"), node("lonely")], []);
    expect(positions.get("lonely")).toEqual({ x: 400, y: 160 });
    expect(positions.get("hidden")).toEqual({ x: 900, y: 900 });
    expect(placed).toEqual(["lonely"]);
  });
});
