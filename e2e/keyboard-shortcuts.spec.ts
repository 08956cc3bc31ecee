import { expect, test } from "@playwright/test";
import { expectAccessible, openChat } from "./pages/axe";
import { createThread } from "./pages/chat-api";

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 180_000 });

test("keyboard shortcuts move between pages, focus the search or the message box, show their help, and never fire while typing", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.locator("main")).toBeVisible();
  const body = page.locator("body");

  // "?" opens the help (a Radix dialog: Escape closes it).
  await body.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("Go to the threads");
  await expectAccessible(page, "the shortcuts help");
  // Keys pressed inside the dialog are not shortcuts.
  await page.keyboard.press("g");
  await page.keyboard.press("t");
  await expect(page).toHaveURL(/\/$/);
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);

  // g t → threads; "/" focuses the search; typing there is text, not shortcuts.
  await page.keyboard.press("g");
  await page.keyboard.press("t");
  await expect(page).toHaveURL(/\/threads$/, { timeout: 30_000 });
  const search = page.getByTestId("thread-search");
  await expect(search).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  await page.keyboard.type("g e n ?");
  await expect(search).toHaveValue("g e n ?");
  // The search lands in the address (debounced); wait for it, so it cannot replace the next navigation.
  await expect(page).toHaveURL(/\/threads\?q=g\+e\+n/);
  await expect(help).toHaveCount(0);
  await search.blur();

  // g e → editor, g h → Home, n → new thread.
  await page.keyboard.press("g");
  await page.keyboard.press("e");
  await expect(page).toHaveURL(/\/editor/, { timeout: 30_000 });
  await page.locator("header").first().click({ position: { x: 2, y: 2 } });
  await page.keyboard.press("g");
  await page.keyboard.press("h");
  await expect(page).toHaveURL(/\/$/, { timeout: 30_000 });
  await page.keyboard.press("n");
  await expect(page).toHaveURL(/\/threads\/new/, { timeout: 30_000 });

  // In a chat, "/" focuses the message box; what is typed there stays text.
  const id = await createThread(request, { agent_id: "writing_assistant" });
  await openChat(page, id);
  await page.locator("body").click({ position: { x: 2, y: 300 } });
  await page.keyboard.press("/");
  const composer = page.getByTestId("composer-input");
  await expect(composer).toBeFocused();
  await page.keyboard.type("n");
  await expect(composer).toHaveValue("n");
  await expect(page).toHaveURL(new RegExp(`/threads/${id}$`));
  await expectAccessible(page, "a chat after shortcuts");
});
