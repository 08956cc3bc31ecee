import { expect, test } from "@playwright/test";
import { AuthServer } from "./pages/auth-server";
import { AgentsDir } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";
import { SignInPage } from "./pages/sign-in-page";

const server = new AuthServer({ name: "editor-non-admin", offset: 58, admin: { username: "admin", password: "admin-password-1" } });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  await server.start();
});
test.afterAll(async () => server.stop());

test("a user who is not an administrator gets a read-only editor with a badge that says so", async ({ page }) => {
  test.setTimeout(180_000);
  const auth = new SignInPage(page, server.url);
  const dir = new AgentsDir(`${server.root}/agents`);
  const before = dir.list();

  // The administrator adds a plain user, then signs out.
  await auth.goAndSignIn("admin", "admin-password-1", "/editor");
  const editor = new EditorPage(page);
  await editor.laidOut();
  await expect(page.getByTestId("readonly-badge")).toHaveCount(0);
  await expect(editor.status).toHaveText("All changes saved");
  const created = await page.request.post(`${server.url}/api/users`, { data: { username: "ursula", password: "ursula-password", role: "user" }, headers: { origin: server.url } });
  expect(created.status()).toBe(201);
  await auth.signOut();

  await auth.goAndSignIn("ursula", "ursula-password", "/editor");
  await editor.laidOut();
  await expect(page.getByTestId("readonly-badge")).toHaveText("🔒 View only");
  await expect(page.getByTestId("readonly-banner")).toContainText("only administrators can change definitions");
  await expect(editor.status).toHaveText("Read-only");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "+ New" })).toBeDisabled();

  // The forms show the values but take no input; rename and delete are off; the panel says why.
  await editor.select("agent", "draft_and_review");
  await expect(editor.field("maxSessionTurns")).toHaveValue("6");
  await expect(editor.field("maxSessionTurns")).toBeDisabled();
  await expect(editor.panel.getByRole("button", { name: "Rename…" })).toBeDisabled();
  await expect(editor.panel.getByRole("button", { name: "Delete…" })).toBeDisabled();
  await expect(editor.panel).toContainText("Read-only: only administrators can change definitions.");
  await editor.select("prompt", "drafter");
  await expect(editor.field("includeChat")).toBeDisabled();

  // Dragging makes no connection, and the server still refuses a save.
  await editor.connect(editor.flowNode("prompt", "reviewer"), editor.flowNode("tool", "save_note"));
  await expect(page.locator('.react-flow__edge[data-id^="tool:prompt:reviewer->tool:save_note"]')).toHaveCount(0);
  await expect(editor.status).toHaveText("Read-only");
  const save = await page.request.post(`${server.url}/api/trpc/editor.save`, { data: { changes: [{ op: "delete", file: "tools/word_count.ts", hash: null }] }, headers: { origin: server.url } });
  expect(save.status()).toBe(403);
  expect(dir.list()).toEqual(before);
});
