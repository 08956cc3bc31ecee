import { describe, expect, it } from "vitest";
import { DETAIL_FONT_PX, MIN_SCREEN_PX, NAME_FONT_PX, textDetail } from "./text-detail";

describe("text level of detail", () => {
  it("never shows text below the minimum size on screen", () => {
    for (let zoom = 0.05; zoom <= 2; zoom += 0.01) {
      const { detail, nameScale } = textDetail(zoom);
      expect(NAME_FONT_PX * nameScale * zoom, `name at zoom ${zoom}`).toBeGreaterThanOrEqual(MIN_SCREEN_PX - 1e-9);
      if (detail === "full") expect(DETAIL_FONT_PX * zoom, `details at zoom ${zoom}`).toBeGreaterThanOrEqual(MIN_SCREEN_PX - 0.05);
    }
  });

  it("shows every detail zoomed in, names only at the fit-to-view zoom of the example graph", () => {
    expect(textDetail(1.2)).toEqual({ detail: "full", nameScale: 1 });
    const fit = textDetail(0.55);
    expect(fit.detail).toBe("names");
    expect(fit.nameScale).toBeGreaterThan(1);
  });
});
