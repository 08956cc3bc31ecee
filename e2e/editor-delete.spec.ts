import { expect, test } from "@playwright/test";
import { AgentsDir, diagnostics } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

test("delete checks references: a side's prompt is flagged, a subprompt goes with its tools entry, and the file is removed", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  // 1. billing_clerk runs billing_desk's side A: deleting it would break the side, and the dialog says so.
  await editor.select("prompt", "billing_clerk");
  await editor.panel.getByRole("button", { name: "Delete…" }).click();
  const dialog = page.getByTestId("delete-dialog");
  await expect(dialog).toContainText("The file prompts/billing_clerk.ts is deleted when you save.");
  await expect(dialog.getByRole("alert")).toContainText("These need another target afterwards");
  await expect(dialog.getByRole("alert").locator("li")).toHaveText(["billing_desk sideA.prompt"]);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(editor.node("prompt", "billing_clerk")).toHaveCount(1);
  await expect(editor.status).not.toContainText("unsaved");

  // 2. polish_text is a subprompt of writing_assistant: its tools entry can go with it.
  await editor.select("prompt", "polish_text");
  await editor.panel.getByRole("button", { name: "Delete…" }).click();
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await expect(dialog.getByTestId("delete-references").locator("li")).toHaveText(["writing_assistant tools.3.name"]);
  await expect(dialog.getByLabel("Also remove 1 reference:")).toBeChecked();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(editor.node("prompt", "polish_text")).toHaveCount(0);
  await expect(editor.edgeLabel("subprompt", "writing_assistant", "polish_text")).toHaveCount(0);
  await expect(editor.node("prompt", "writing_assistant")).toHaveAttribute("data-issues", "none");
  await expect(editor.status).toHaveText("2 unsaved changes");

  // Undo brings both back; redo deletes again.
  await page.getByRole("button", { name: "↶ Undo" }).click();
  await expect(editor.node("prompt", "polish_text")).toHaveCount(1);
  await expect(editor.edgeLabel("subprompt", "writing_assistant", "polish_text")).toHaveCount(1);
  await page.getByRole("button", { name: "↷ Redo" }).click();
  await expect(editor.node("prompt", "polish_text")).toHaveCount(0);

  // 3. Save: the file is gone, the entry is gone from writing_assistant, nothing else changed.
  await editor.save();
  expect(dir.exists("prompts/polish_text.ts")).toBe(false);
  expect(dir.read("prompts/writing_assistant.ts")).toBe(before.get("prompts/writing_assistant.ts")!.replace(`    { name: "polish_text", initUserMessageProperty: "text" },\n`, ""));
  for (const [rel, text] of dir.list()) if (rel !== "prompts/writing_assistant.ts") expect(text, rel).toBe(before.get(rel));
  expect([...dir.list().keys()].length).toBe(before.size - 1);
  expect(await diagnostics()).toEqual([]);
});
