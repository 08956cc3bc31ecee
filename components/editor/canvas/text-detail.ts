/**
 * Text level of detail: no text on the canvas renders below MIN_SCREEN_PX on screen. Zoomed in (detail text at
 * least that big), nodes show everything. Zoomed out, they show their names only, scaled up so that they stay
 * MIN_SCREEN_PX tall; details, kind labels, chips and edge labels are hidden (their space is kept, so nothing is
 * measured again and no edge moves). A node's problems badge and collapse toggle scale like its name. The wrapper's data-detail and --name-scale drive TEXT_DETAIL_CSS.
 */

/** The smallest text size on screen, in CSS pixels. */
export const MIN_SCREEN_PX = 11;
/** The smallest text a node or an edge label draws in full detail (text-[10px]), and a node name (text-sm). */
export const DETAIL_FONT_PX = 10;
export const NAME_FONT_PX = 14;

export type TextDetail = "full" | "names";

/** Which text shows at `zoom`, and how much node names are scaled up (1: not at all). */
export function textDetail(zoom: number): { detail: TextDetail; nameScale: number } {
  const detail: TextDetail = DETAIL_FONT_PX * zoom >= MIN_SCREEN_PX - 0.05 ? "full" : "names";
  const raw = Math.max(1, MIN_SCREEN_PX / (NAME_FONT_PX * zoom));
  // Quantised up (never below the minimum), so that zooming restyles the names only every few percent.
  const nameScale = raw === 1 ? 1 : Math.ceil(raw * 20) / 20;
  return { detail, nameScale };
}

/** Applies the text detail of `zoom` to the canvas wrapper (attribute and variable change only when they differ). */
export function applyTextDetail(wrapper: HTMLElement | null, zoom: number): void {
  if (!wrapper) return;
  const { detail, nameScale } = textDetail(zoom);
  if (wrapper.getAttribute("data-detail") !== detail) wrapper.setAttribute("data-detail", detail);
  const scale = String(nameScale);
  if (wrapper.style.getPropertyValue("--name-scale") !== scale) wrapper.style.setProperty("--name-scale", scale);
}

export const TEXT_DETAIL_CSS = `
[data-editor-canvas] [data-node-name] { display: block; transform-origin: left top; }
[data-editor-canvas] [data-node-issues-wrap] { transform-origin: left top; }
[data-editor-canvas][data-detail="names"] [data-node-name] {
  max-width: calc(100% / var(--name-scale, 1));
  transform: scale(var(--name-scale, 1));
}
[data-editor-canvas][data-detail="names"] [data-node-issues-wrap] { transform: scale(var(--name-scale, 1)); }
[data-editor-canvas][data-detail="names"] [data-testid="collapse-toggle"] { transform: scale(var(--name-scale, 1)); transform-origin: right top; }
[data-editor-canvas] [data-testid="collapse-toggle"] { position: relative; z-index: 1; }
[data-editor-canvas][data-detail="names"] .react-flow__node:has([data-testid="collapse-toggle"]) [data-node-name] {
  max-width: calc(100% / var(--name-scale, 1) - 1.4rem);
}
[data-editor-canvas][data-detail="names"] .node-detail,
[data-editor-canvas][data-detail="names"] [data-node-kind-label],
[data-editor-canvas][data-detail="names"] [data-node-badges],
[data-editor-canvas][data-detail="names"] [data-testid="edge-label"] { visibility: hidden; }
`;
