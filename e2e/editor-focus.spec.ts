import { expect, test, type Page } from "@playwright/test";
import { EditorPage } from "./pages/editor-page";

// The first layout alone can take tens of seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });

const zoomOf = (page: Page) => page.locator(".react-flow__viewport").evaluate((e) => Number(/scale\(([^)]+)\)/.exec((e as HTMLElement).style.transform)?.[1] ?? "1"));

test("focus mode shows a node with its neighbours, dims the rest and fits them in view; Esc shows the whole graph again", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  const focus = page.getByRole("button", { name: /^Focus/ });
  // Nothing selected: nothing to focus on.
  await expect(focus).toBeDisabled();
  const fitted = await zoomOf(page);

  await editor.select("prompt", "drafter");
  await focus.click();
  await expect(focus).toHaveAttribute("aria-pressed", "true");
  await expect(focus).toHaveText("Focus: drafter ✕");

  // drafter and what one edge joins it to stand out: its side's agent, its model, its include and its tools.
  for (const [kind, name] of [
    ["prompt", "drafter"],
    ["agent", "draft_and_review"],
    ["model", "careful"],
    ["prompt", "house_style"],
    ["tool", "word_count"],
    ["tool", "give_up"],
  ] as const) {
    await expect(editor.node(kind, name), `${kind} ${name}`).not.toHaveAttribute("data-dimmed", "true");
    await expect(editor.node(kind, name), `${kind} ${name}`).toBeInViewport();
  }
  // The rest is dimmed.
  await expect(editor.node("agent", "writing_assistant")).toHaveAttribute("data-dimmed", "true");
  await expect(editor.node("tool", "save_note")).toHaveAttribute("data-dimmed", "true");
  // The view fits the neighbourhood: closer than the whole graph.
  await expect.poll(() => zoomOf(page)).toBeGreaterThan(fitted);

  // Esc (outside a text field) leaves focus mode.
  await editor.canvas.click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Escape");
  await expect(focus).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator('[data-testid="editor-node"][data-dimmed="true"]')).toHaveCount(0);
});
