import { expect, test, type Page } from "@playwright/test";
import { AgentsDir } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
// The first layout alone can take tens of seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

/** Each React Flow node's transform (its place on the canvas), by node id. */
const places = (page: Page) =>
  page.locator(".react-flow__node").evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute("data-id") ?? "", (e as HTMLElement).style.transform])));
const viewport = (page: Page) => page.locator(".react-flow__viewport").evaluate((e) => (e as HTMLElement).style.transform);

test("the save status counts every pending change and says when a field holds input that is not applied", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  // Invalid JSON in a field: nothing is applied, and the status says so (it used to say "All changes saved").
  await editor.select("model", "fast");
  await editor.field("providerOptions").fill("{ temperature: ");
  await expect(editor.fieldFrame("providerOptions").getByTestId("field-error")).toHaveText("not valid JSON yet");
  await expect(editor.status).toHaveText("1 field with invalid input (not applied)");
  await expect(editor.status).toHaveAttribute("data-tone", "invalid");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
  await editor.field("providerOptions").fill("");
  await expect(editor.status).toHaveText("All changes saved");

  // Two edits of two fields of one file are two changes (it used to say "1 unsaved change").
  await editor.select("prompt", "drafter");
  const includeChat = editor.field("includeChat");
  const parallel = editor.field("parallelToolCalls");
  await includeChat.click();
  await expect(editor.status).toHaveText("1 unsaved change");
  await parallel.click();
  await expect(editor.status).toHaveText("2 unsaved changes");
  await expect(editor.status).toHaveAttribute("data-tone", "pending");
  // A field put back is no change; undo and redo count right.
  await parallel.click();
  await expect(editor.status).toHaveText("1 unsaved change");
  await page.getByRole("button", { name: "↶ Undo" }).click();
  await expect(editor.status).toHaveText("2 unsaved changes");

  // A pending change and an invalid input together: both are said.
  await editor.select("model", "fast");
  await editor.field("providerOptions").fill("[1,");
  await expect(editor.status).toHaveText("2 unsaved changes · 1 field with invalid input (not applied)");
  expect(dir.list()).toEqual(before);
});

test("provider options are edited in CodeMirror with JSON diagnostics inline; schemas and code are read-only highlighted views", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.select("model", "fast");
  const options = editor.fieldFrame("providerOptions");
  await editor.field("providerOptions").fill('{ "temperature": 0.2, oops }');
  // The parse error is marked where it is (a range in the text and a mark in the gutter), and nothing is applied.
  await expect(options.getByTestId("field-error")).toHaveText("not valid JSON yet");
  await expect(options.locator(".cm-lintRange-error")).toHaveCount(1);
  await expect(options.locator(".cm-lint-marker-error")).toBeVisible();
  await expect(editor.status).toHaveText("1 field with invalid input (not applied)");
  await editor.field("providerOptions").fill('{ "temperature": 0.2 }');
  await expect(options.locator(".cm-lintRange-error")).toHaveCount(0);
  await expect(editor.status).toHaveText("1 unsaved change");
  // JSON tokens are highlighted (CodeMirror's JSON language).
  await expect(options.locator(".cm-line span").first()).toBeVisible();

  // A zod schema in the file: shown as TypeScript, highlighted, not editable.
  await editor.select("prompt", "drafter");
  const schema = editor.fieldFrame("requiredSchema").getByTestId("code-view");
  await expect(schema).toContainText("z.object");
  await expect(schema).toHaveAttribute("aria-readonly", "true");
  await expect(schema.locator(".cm-line span").first()).toBeVisible();
  // Selectable and searchable, but typing changes nothing.
  await schema.click();
  await page.keyboard.type("typed");
  await expect(schema).not.toContainText("typed");
  await expect(editor.status).toHaveText("1 unsaved change");
});

test("Variables → Type explains variable types, not agent types", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.select("prompt", "billing_clerk");
  await editor.fieldFrame("variables").getByRole("button", { name: /Add/ }).first().click();
  const type = editor.fieldFrame("variables.0.type");
  await expect(type).toContainText("secret: write-only");
  await expect(type).not.toContainText("ai_human");
  // The agent's own type field keeps its help.
  await editor.select("agent", "draft_and_review");
  await expect(editor.fieldFrame("type")).toContainText("ai_human: an AI side A and a person on side B");
});

test("the layout is stable: creating and saving a prompt places only the new node, the view keeps its zoom, nothing under the minimap", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await expect.poll(async () => Object.keys(await places(page)).length).toBeGreaterThan(10);

  // At first sight, no node hides under the minimap and every node is inside the canvas.
  const minimap = (await page.locator(".react-flow__minimap").boundingBox())!;
  const canvas = (await editor.canvas.boundingBox())!;
  for (const box of await page.locator(".react-flow__node").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    const underMinimap = box.x + box.width > minimap.x && box.y + box.height > minimap.y && box.x < minimap.x + minimap.width && box.y < minimap.y + minimap.height;
    expect(underMinimap, JSON.stringify(box)).toBe(false);
    expect(box.x).toBeGreaterThanOrEqual(canvas.x - 1);
    expect(box.x + box.width).toBeLessThanOrEqual(canvas.x + canvas.width + 1);
  }

  const placesBefore = await places(page);
  const viewBefore = await viewport(page);
  const layouts = await editor.layoutCount();

  const dialog = await editor.newDefinition("Prompt");
  await dialog.getByLabel("Name").fill("tiny_helper");
  await dialog.getByLabel("Model").selectOption("fast");
  await dialog.getByLabel("System prompt").fill("Answer in one short sentence.");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect.poll(() => editor.layoutCount()).toBeGreaterThan(layouts);
  await expect(editor.node("prompt", "tiny_helper")).toBeInViewport();

  const placesAfterCreate = await places(page);
  for (const [id, place] of Object.entries(placesBefore)) expect(placesAfterCreate[id], id).toBe(place);
  expect(await viewport(page).then((v) => v.match(/scale\(([^)]+)\)/)?.[1])).toBe(viewBefore.match(/scale\(([^)]+)\)/)?.[1]);

  const layoutsBeforeSave = await editor.layoutCount();
  await editor.save();
  // The saved view may lay out again; it must not move anything.
  await page.waitForTimeout(500);
  expect(await editor.layoutCount()).toBeGreaterThanOrEqual(layoutsBeforeSave);
  const placesAfterSave = await places(page);
  for (const [id, place] of Object.entries(placesAfterCreate)) expect(placesAfterSave[id], id).toBe(place);
  expect(await viewport(page).then((v) => v.match(/scale\(([^)]+)\)/)?.[1])).toBe(viewBefore.match(/scale\(([^)]+)\)/)?.[1]);
  expect(dir.exists("prompts/tiny_helper.ts")).toBe(true);

  // Tidy layout lays everything out afresh and fits it in view.
  await page.getByRole("button", { name: "Tidy layout" }).click();
  await expect(editor.node("prompt", "tiny_helper")).toBeInViewport();
});
