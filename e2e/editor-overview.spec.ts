import { expect, test, type Page } from "@playwright/test";
import { EditorPage } from "./pages/editor-page";
import { LargeGraphServer } from "./pages/large-graph-server";

const server = new LargeGraphServer({ models: 6, tools: 90, prompts: 70, agents: 40 });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start();
});
test.afterAll(() => server.stop());

const painted = (page: Page) =>
  page.getByTestId("overview-canvas").evaluate((c) => {
    const canvas = c as HTMLCanvasElement;
    const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
const mounted = (page: Page) => page.locator(".react-flow__node").count();
const zoomOf = (page: Page) => page.locator(".react-flow__viewport").evaluate((e) => Number(/scale\(([^)]+)\)/.exec((e as HTMLElement).style.transform)?.[1] ?? "1"));

test.describe.configure({ timeout: 180_000 });

test("a large graph opens in the overview canvas; search zooms into full detail; zooming out crosses the threshold once and mounts no node", async ({ page }) => {
  test.setTimeout(120_000);
  const editor = new EditorPage(page);
  await page.goto(`${server.url}/editor`);
  await editor.laidOut();
  await expect(editor.canvas).toHaveAttribute("data-node-count", String(server.definitions));

  // Fit to view is below the threshold: the overview canvas draws the graph, the DOM nodes are not displayed.
  await expect(editor.canvas).toHaveAttribute("data-lod", "low");
  await expect(page.getByTestId("overview-canvas")).toBeVisible();
  await expect(page.locator(".react-flow__nodes")).toBeHidden();
  await expect.poll(() => painted(page)).toBeGreaterThan(20_000);
  // Only what was in view is mounted, never the whole graph.
  expect(await mounted(page)).toBeLessThan(server.definitions);

  // Search: the node is centred at a zoom where its details are readable, in full detail.
  await page.getByLabel("Find a node").fill("p_12 (prompt)");
  await expect(editor.canvas).toHaveAttribute("data-lod", "high");
  await expect(editor.node("prompt", "p_12")).toBeInViewport();
  await expect(editor.canvas).toHaveAttribute("data-detail", "full");
  await expect(editor.panel.getByTestId("definition-panel")).toHaveAttribute("data-name", "p_12");
  await expect(page.getByTestId("overview-canvas")).toBeHidden();
  // In full detail only the nodes near the view are mounted, and the minimap still draws the whole graph.
  expect(await mounted(page)).toBeLessThan(server.definitions / 2);
  await expect(page.getByTestId("large-minimap")).toBeVisible();
  await expect(page.getByTestId("large-minimap")).toHaveAttribute("data-node-count", String(server.definitions));

  // Zoom out step by step across the threshold: the level of detail flips once, and the flip mounts no node.
  await page.evaluate(() => {
    const w = window as unknown as { __lod: string[] };
    w.__lod = [];
    const el = document.querySelector("[data-editor-canvas]")!;
    new MutationObserver(() => w.__lod.push(el.getAttribute("data-lod") ?? "")).observe(el, { attributes: true, attributeFilter: ["data-lod"] });
  });
  const box = (await editor.canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 40 && (await zoomOf(page)) > 0.3; i++) {
    await page.mouse.wheel(0, 60);
    await page.waitForTimeout(40);
  }
  await expect(editor.canvas).toHaveAttribute("data-lod", "low");
  const flips = await page.evaluate(() => (window as unknown as { __lod: string[] }).__lod);
  expect(flips).toEqual(["low"]);
  // Crossing did not mount the whole graph (it used to, in one frame), and panning the overview mounts nothing.
  const atFlip = await mounted(page);
  expect(atFlip).toBeLessThan(server.definitions);
  await page.mouse.move(box.x + 200, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + 500, box.y + 400, { steps: 10 });
  await page.mouse.up();
  expect(await mounted(page)).toBe(atFlip);
  await expect.poll(() => painted(page)).toBeGreaterThan(20_000);

  // And back in: full detail again, names never below the minimum size.
  await page.getByLabel("Find a node").fill("a_3 (agent)");
  await expect(editor.canvas).toHaveAttribute("data-lod", "high");
  await expect(editor.node("agent", "a_3")).toBeInViewport();
});
