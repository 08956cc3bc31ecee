import { expect, test } from "@playwright/test";
import { AgentsDir } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";
import { ReadonlyServer } from "./pages/editor-readonly-server";

const server = new ReadonlyServer();
test.beforeAll(async () => {
  test.setTimeout(90_000);
  await server.start();
});
test.afterAll(() => server.stop());

test("with DEFINITIONS_READONLY=1 the editor is view-only, says so, and the server refuses writes", async ({ page }) => {
  const dir = new AgentsDir(server.agentsDir);
  const before = dir.list();
  const editor = new EditorPage(page);
  await page.goto(`${server.url}/editor`);
  await expect(editor.canvas).toHaveAttribute("data-layout-count", /^[1-9]/, { timeout: 20_000 });

  await expect(page.getByTestId("readonly-banner")).toContainText("DEFINITIONS_READONLY=1");
  await expect(editor.status).toHaveText("Read-only");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "+ New" })).toBeDisabled();

  // The graph is all there, and the forms show the values but do not take input.
  await expect(editor.node("agent", "draft_and_review")).toBeVisible();
  await editor.select("agent", "draft_and_review");
  await expect(editor.field("maxSessionTurns")).toHaveValue("6");
  await expect(editor.field("maxSessionTurns")).toBeDisabled();
  await expect(editor.panel.getByRole("button", { name: "Rename…" })).toBeDisabled();
  await expect(editor.panel.getByRole("button", { name: "Delete…" })).toBeDisabled();
  await expect(editor.panel).toContainText("Read-only");

  // Dragging makes no connection.
  await editor.connect(editor.flowNode("prompt", "reviewer"), editor.flowNode("tool", "save_note"));
  await expect(page.locator('.react-flow__edge[data-id^="tool:prompt:reviewer->tool:save_note"]')).toHaveCount(0);
  await expect(editor.status).toHaveText("Read-only");

  // The API refuses writes too, with the reason.
  const res = await page.request.post(`${server.url}/api/trpc/editor.scaffoldTool`, { data: { name: "sneaky", description: "should not be written" } });
  expect(res.status()).toBe(403);
  expect(JSON.stringify(await res.json())).toContain("DEFINITIONS_READONLY=1");
  const save = await page.request.post(`${server.url}/api/trpc/editor.save`, {
    data: { changes: [{ op: "delete", file: "tools/word_count.ts", hash: null }] },
  });
  expect(save.status()).toBe(403);
  expect(dir.list()).toEqual(before);
});
