import { expect, test } from "@playwright/test";
import { expectAccessible, openChat, useTheme } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";
import { post, scriptLeadScenario } from "./pages/inspector-scenario";

test.use({ viewport: { width: 1440, height: 900 } });
// A shared, loaded machine: axe and first paints take their time.
test.describe.configure({ timeout: 180_000 });

test("a blocking child is watched live from the chat: its card names it, shows its status and links to it while it runs", async ({
  page,
  request,
}, testInfo) => {
  await scriptLeadScenario({ checkerDelayMs: 12_000, reviewerDelayMs: 500 });
  const lead = await createThread(request, { agent_id: "insp_lead" });
  const chat = new ChatPage(page);
  await openChat(page, lead);
  await post(request, lead, "Start the work");

  // While the Checker thinks, the blocking call's card already names the child and links to it.
  const card = page.locator('[data-testid="child-card"][data-event="running"]').filter({ hasText: "fact_check" });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByTestId("child-agent")).toContainText("Fact check");
  await expect(card.getByTestId("thread-status")).toHaveText("Running");
  await expect(card.getByTestId("child-link")).toBeVisible();
  await expect(card.getByTestId("child-elapsed")).toHaveText(/^\d+s$/);
  await shot(page, testInfo, "running child card");
  const href = await card.getByTestId("child-link").getAttribute("href");
  expect(href).toMatch(/^\/threads\/[0-9a-f-]{36}$/);

  // The result comes back into the same card; the child reads Finished, not a grey Terminated.
  const returned = page.locator('[data-testid="child-card"]').filter({ has: page.locator(`a[href="${href}"]`) }).first();
  await expect(page.locator('[data-testid="child-card"][data-event="running"]').filter({ hasText: "fact_check" })).toHaveCount(0, { timeout: 45_000 });
  await expect(returned.getByTestId("thread-status")).toHaveText("Finished", { timeout: 15_000 });
  await expect(chat.status).toHaveText("Waiting for you", { timeout: 20_000 });

  // The usage table fits its panel: no header cut, numbers apart.
  const table = page.getByTestId("usage-table");
  await expect(table).toBeVisible({ timeout: 15_000 });
  const fits = await table.evaluate((t) => {
    const panel = t.closest("aside")!;
    const heads = [...t.querySelectorAll("th")].map((th) => th.scrollWidth <= th.clientWidth + 1);
    return { inside: t.getBoundingClientRect().right <= panel.getBoundingClientRect().right, heads };
  });
  expect(fits.inside).toBe(true);
  expect(fits.heads.every(Boolean)).toBe(true);
  await expect(table.locator("th").last()).toHaveText("Cost");
  await shot(page, testInfo, "usage table after the delegation");
  await expectAccessible(page, "the lead's conversation");

  // In the child: the brief is the parent's, the outcome is Finished, "accepts no new messages" is said once.
  await returned.getByTestId("child-link").click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(chat.fromAuthor("Parent agent")).toBeVisible();
  await expect(chat.threadStatus).toHaveText("Finished");
  await expect(page.getByText("accepts no new messages")).toHaveCount(1);
  await shot(page, testInfo, "finished child thread light");
  await expectAccessible(page, "the child's conversation");
});

test("the finished child thread in dark mode", async ({ page, request }, testInfo) => {
  await useTheme(page, "dark");
  const id = await createThread(request, {
    agent_id: "fact_check",
    initial_messages: [
      { role: "user", content: "Check: the office opens on **Monday**.", metadata: { from_parent: "00000000-0000-7000-8000-000000000000" } },
      { role: "assistant", content: "The claim holds." },
    ],
  });
  const chat = new ChatPage(page);
  await openChat(page, id);
  await expect(chat.fromAuthor("Parent agent")).toBeVisible();
  await shot(page, testInfo, "child thread dark");
  await expectAccessible(page, "a dual_ai thread in dark mode");
});
