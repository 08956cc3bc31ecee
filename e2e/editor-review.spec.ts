import { expect, test } from "@playwright/test";
import { AgentsDir } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
// The first layout alone can take tens of seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

test("Save shows each file before and after first; Keep editing writes nothing, the dialog's Save writes exactly that", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  await editor.select("prompt", "drafter");
  await editor.field("includeChat").click();
  const tiny = await editor.newDefinition("Prompt");
  await tiny.getByLabel("Name").fill("tiny_helper");
  await tiny.getByLabel("Model").selectOption("fast");
  await tiny.getByLabel("System prompt").fill("Answer in one short sentence.");
  await tiny.getByRole("button", { name: "Create" }).click();
  await expect(editor.status).toHaveText("2 unsaved changes");

  await page.getByRole("button", { name: "Save", exact: true }).click();
  const review = page.getByTestId("review-dialog");
  await expect(review.getByRole("heading")).toHaveText("Review the changes before saving");
  await expect(review.getByTestId("review-file")).toHaveCount(2);
  const drafter = review.locator('[data-testid="review-file"][data-file="prompts/drafter.ts"]');
  await expect(drafter).toContainText("changed");
  await expect(drafter).toContainText("+1 −1");
  await expect(drafter.locator('[data-change="before"]')).toHaveText(["−   includeChat: true,"]);
  await expect(drafter.locator('[data-change="after"]')).toHaveText(["+   includeChat: false,"]);
  const created = review.locator('[data-testid="review-file"][data-file="prompts/tiny_helper.ts"]');
  await expect(created).toContainText("new file");
  await expect(created.locator('[data-change="after"]').filter({ hasText: 'name: "tiny_helper"' })).toHaveCount(1);
  await expect(created.locator('[data-change="before"]')).toHaveCount(0);

  // Keep editing: nothing is written, the changes stay pending.
  await review.getByRole("button", { name: "Keep editing" }).click();
  await expect(review).toHaveCount(0);
  expect(dir.list()).toEqual(before);
  await expect(editor.status).toHaveText("2 unsaved changes");

  // Ctrl+S opens the same review; its Save writes the two files and nothing else.
  await editor.canvas.click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+s");
  await review.getByRole("button", { name: "Save 2 files" }).click();
  await expect(editor.status).toHaveText("All changes saved", { timeout: 15_000 });
  expect(dir.read("prompts/drafter.ts")).toBe(before.get("prompts/drafter.ts")!.replace("includeChat: true,", "includeChat: false,"));
  expect(dir.exists("prompts/tiny_helper.ts")).toBe(true);
  for (const [rel, text] of dir.list()) if (rel !== "prompts/drafter.ts" && rel !== "prompts/tiny_helper.ts") expect(text, rel).toBe(before.get(rel));
});
