import { describe, expect, it } from "vitest";
import { nearView } from "./use-culled-nodes";

const pane = { width: 1000, height: 600 };
const box = (x: number, y: number) => ({ x, y, width: 200, height: 80 });

describe("nearView", () => {
  it("keeps nodes in the pane and within half a pane of it, at the viewport's zoom", () => {
    const v = { x: 0, y: 0, zoom: 1 };
    expect(nearView(box(100, 100), v, pane)).toBe(true);
    expect(nearView(box(1400, 100), v, pane)).toBe(true); // half a pane to the right
    expect(nearView(box(1600, 100), v, pane)).toBe(false);
    expect(nearView(box(-350, -320), v, pane)).toBe(true);
    expect(nearView(box(-800, 0), v, pane)).toBe(false);
  });

  it("follows pan and zoom", () => {
    // Panned 2000 px left at zoom 0.5: the pane shows flow x 4000..6000.
    const v = { x: -2000, y: 0, zoom: 0.5 };
    expect(nearView(box(4500, 100), v, pane)).toBe(true);
    expect(nearView(box(100, 100), v, pane)).toBe(false);
    expect(nearView(box(6800, 100), v, pane)).toBe(true);
    expect(nearView(box(7300, 100), v, pane)).toBe(false);
  });
});
