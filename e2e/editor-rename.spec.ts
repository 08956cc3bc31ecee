import { expect, test } from "@playwright/test";
import { AgentsDir, diagnostics } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

test("rename a prompt: every reference follows, undo and redo, then the files say exactly that", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  // house_style is included by every other prompt of the example.
  await editor.select("prompt", "house_style");
  await editor.panel.getByRole("button", { name: "Rename…" }).click();
  const dialog = page.getByTestId("rename-dialog");
  await expect(dialog.getByTestId("rename-references").locator("li")).toHaveCount(4);
  await dialog.getByLabel("New name").fill("not a name");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await expect(dialog.getByTestId("field-error")).toContainText("is not a valid name");
  await dialog.getByLabel("New name").fill("voice");
  await dialog.getByRole("button", { name: "Rename" }).click();

  await expect(editor.node("prompt", "voice")).toHaveCount(1);
  await expect(editor.node("prompt", "house_style")).toHaveCount(0);
  for (const p of ["drafter", "reviewer", "polish_text", "writing_assistant"]) await expect(editor.edgeLabel("include", p, "voice")).toHaveCount(1);

  // Undo brings the old name back everywhere; redo renames again.
  await page.getByRole("button", { name: "↶ Undo" }).click();
  await expect(editor.node("prompt", "house_style")).toHaveCount(1);
  await expect(editor.edgeLabel("include", "drafter", "house_style")).toHaveCount(1);
  await page.getByRole("button", { name: "↷ Redo" }).click();
  await expect(editor.node("prompt", "voice")).toHaveCount(1);
  await expect(editor.status).toHaveText("5 unsaved changes");

  await editor.save();
  expect(dir.exists("prompts/house_style.ts")).toBe(false);
  expect(dir.read("prompts/voice.ts")).toBe(before.get("prompts/house_style.ts")!.replace(`name: "house_style"`, `name: "voice"`));
  for (const p of ["drafter", "reviewer", "polish_text", "writing_assistant"]) {
    const rel = `prompts/${p}.ts`;
    expect(dir.read(rel), rel).toBe(before.get(rel)!.replace(`{ type: "include", prompt: "house_style" }`, `{ type: "include", prompt: "voice" }`));
  }
  for (const [rel, text] of dir.list()) if (!/^prompts\/(voice|drafter|reviewer|polish_text|writing_assistant)\.ts$/.test(rel)) expect(text, rel).toBe(before.get(rel));
  expect(await diagnostics()).toEqual([]);
  await expect(editor.node("prompt", "voice")).toHaveAttribute("data-issues", "none");
});

test("rename a prompt used by an agent's side: the side follows", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();
  await editor.select("prompt", "reviewer");
  await editor.panel.getByRole("button", { name: "Rename…" }).click();
  await page.getByTestId("rename-dialog").getByLabel("New name").fill("critic");
  await page.getByTestId("rename-dialog").getByRole("button", { name: "Rename" }).click();
  await expect(editor.edgeLabel("side", "draft_and_review", "critic")).toContainText("side B");
  await editor.save();
  expect(dir.read("agents/draft_and_review.ts")).toBe(before.get("agents/draft_and_review.ts")!.replace(`prompt: "reviewer"`, `prompt: "critic"`));
  expect(dir.exists("prompts/critic.ts")).toBe(true);
  expect(await diagnostics()).toEqual([]);
});
