import { expect, test, type Page } from "@playwright/test";
import { AgentsDir, diagnostics } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
// The first layout alone can take tens of seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

const editorOf = (page: Page) => page.getByTestId("side-panel").getByTestId("prompt-code-editor");
const completion = (page: Page, label: string) => page.locator(".cm-tooltip-autocomplete li").filter({ hasText: label }).first();
/** Waits until the option is the one Enter picks, and picks it at once (a user typing fast does the same). */
async function pick(page: Page, label: string) {
  await expect(completion(page, label)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
}

/** Puts the cursor at the end of the prompt text. */
async function toEnd(page: Page) {
  await editorOf(page).click();
  await page.keyboard.press("Control+End");
}

test("prompt text: highlighted tokens, inline warnings for undefined variables and unknown tools, find", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.select("prompt", "support_agent");
  const text = editorOf(page);
  await expect(text).toContainText("You are the support desk of the test shop.");
  await toEnd(page);
  await page.keyboard.type(" Region {{SUPPORT_REGION}}, city {{CITY}}. Ask @billing_desk or @nobody.");
  await expect(text.locator(".cm-variable")).toHaveCount(2);
  await expect(text.locator(".cm-mention")).toHaveCount(2);
  // Only the undefined variable and the unknown tool are marked.
  await expect(text.locator(".cm-lintRange-warning")).toHaveCount(2);
  await expect(text.locator(".cm-lintRange-warning").first()).toHaveText("{{CITY}}");
  await expect(text.locator(".cm-lintRange-warning").last()).toHaveText("@nobody");
  await text.locator(".cm-lintRange-warning").first().hover();
  await expect(page.locator(".cm-tooltip-lint")).toContainText('Variable "CITY" is not defined');
  // A variable makes the prompt parts.
  await expect(editor.status).toHaveText("1 unsaved change");

  // Find (Ctrl+F) opens the search panel.
  await page.keyboard.press("Control+f");
  await expect(page.locator(".cm-search")).toBeVisible();

  // The model picker lists every model file with provider, model id, price and capabilities; a search narrows it.
  const picker = editor.panel.getByTestId("model-picker");
  await expect(picker.getByRole("radio", { name: /^careful/ })).toContainText("openai · gpt-4.1 · $2 / $8 per M tokens · tools, vision, streaming");
  await expect(picker.getByRole("radio", { name: /^fast/ })).toHaveAttribute("aria-checked", "true");
  await picker.getByLabel("Search models").fill("gpt-4.1 $2");
  await expect(picker.getByRole("radio")).toHaveCount(1);
  await picker.getByRole("radio", { name: /^careful/ }).click();
  await expect(editor.field("model")).toHaveValue("careful");
  await expect(editor.node("prompt", "support_agent")).toContainText("careful");
  await expect(editor.status).toHaveText("2 unsaved changes");

  // The provider's own model list (GET /api/providers/openai/models): the files it lists say so, and a listed model no
  // file names yet can be added as a new model file.
  await expect(picker.getByTestId("provider-status")).toContainText("openai: ");
  await expect(picker.getByRole("radio", { name: /^careful/ }).getByTestId("model-listed")).toHaveText(" · listed by openai");
  await picker.getByLabel("Search models").fill("gpt-4o-mini");
  await picker.getByTestId("provider-models").locator("summary").click();
  await picker.getByRole("button", { name: "Add openai gpt-4o-mini" }).click();
  await expect(editor.node("model", "gpt_4o_mini")).toBeVisible();
  await expect(editor.node("prompt", "support_agent")).toContainText("gpt_4o_mini");
  await expect(editor.status).toHaveText("3 unsaved changes");
});

test("prompt text: @ completes tools and adds a picked tool to the prompt, {{ completes variables; saved as parts", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();
  await editor.select("prompt", "billing_clerk");
  await toEnd(page);

  await page.keyboard.type(" Count words with @word");
  await pick(page, "@word_count");
  await page.keyboard.type(" and keep notes with @save_n");
  await expect(completion(page, "@save_note")).toContainText("adds it to this prompt");
  await pick(page, "@save_note");
  await expect(editor.node("prompt", "billing_clerk")).toContainText("2 tools");

  await page.keyboard.type(". Region: {{SUPPORT_R");
  await pick(page, "SUPPORT_REGION");
  await page.keyboard.type(".");
  await expect(editorOf(page)).toContainText("Count words with @word_count and keep notes with @save_note. Region: {{SUPPORT_REGION}}.");
  await expect(editorOf(page).locator(".cm-lintRange-warning, .cm-lintRange-error")).toHaveCount(0);

  await editor.save();
  const file = dir.read("prompts/billing_clerk.ts");
  expect(file).toContain(`tools: ["word_count", "save_note"]`);
  expect(file).toContain("You handle invoices and refunds. Count words with @word_count and keep notes with @save_note. Region: ");
  expect(file).toMatch(/type: "env",\s*property: "SUPPORT_REGION"/);
  for (const [rel, t] of dir.list()) if (rel !== "prompts/billing_clerk.ts") expect(t, rel).toBe(before.get(rel));
  expect(await diagnostics()).toEqual([]);
});
