import { expect, test } from "@playwright/test";
import { expectAccessible, useTheme } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { HomePage } from "./pages/home-page";

test.use({ viewport: { width: 1440, height: 900 } });
// A shared, loaded machine: axe and first paints take their time.
test.describe.configure({ timeout: 180_000 });

test("dark mode: the header's brand is light on dark and an unknown address gets the app's own 404 page", async ({ page }, testInfo) => {
  await useTheme(page, "dark");
  const res = await page.goto("/no/such/page");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  const colors = await page.evaluate(() => {
    // Computed colours may be oklch(): a canvas turns any CSS colour into RGB.
    const ctx = document.createElement("canvas").getContext("2d")!;
    const luminance = (c: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = c;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
    };
    return {
      body: luminance(getComputedStyle(document.body).backgroundColor),
      brand: luminance(getComputedStyle(document.querySelector('[data-testid="brand"]')!).color),
    };
  });
  expect(colors.body).toBeLessThan(0.2);
  expect(colors.brand).toBeGreaterThan(0.8);
  await shot(page, testInfo, "404 dark");
  await expectAccessible(page, "the 404 page in dark mode");
});

test("a malformed thread address says the thread does not exist, and the snapshot answers 404, not 500", async ({ page }, testInfo) => {
  const snapshot = page.waitForResponse((r) => r.url().includes("chat.snapshot"));
  await page.goto("/threads/not-a-thread-id");
  // A batched call answers 207 when its calls differ; each call carries its own status.
  const body = await (await snapshot).text();
  expect(body).toContain('"httpStatus":404');
  expect(body).not.toContain('"httpStatus":500');
  await expect(page.getByText("This thread does not exist.")).toBeVisible({ timeout: 30_000 });
  await shot(page, testInfo, "malformed thread id");
});

test("Home's agent cards start a thread, list its threads and open the editor; the thread list hides internal tags", async ({
  page,
  request,
}, testInfo) => {
  const home = new HomePage(page);
  await home.open();
  const card = home.agent("writing_assistant");
  await expect(card.getByTestId("agent-start")).toHaveAttribute("href", "/threads/new?agent=writing_assistant");
  await expect(card.getByTestId("agent-edit")).toHaveAttribute("href", "/editor?root=writing_assistant");
  await shot(page, testInfo, "home light");
  await expectAccessible(page, "Home");

  await createThread(request, { agent_id: "writing_assistant", tags: ["name:Internal", "visible-tag"] });
  await card.getByTestId("agent-threads").click();
  await expect(page).toHaveURL(/\/threads\?agent=writing_assistant/);
  await expect(page.getByTestId("thread-tag").filter({ hasText: "visible-tag" }).first()).toBeVisible();
  await expect(page.getByTestId("thread-tag").filter({ hasText: "name:" })).toHaveCount(0);
  await shot(page, testInfo, "thread list");
  await expectAccessible(page, "the thread list");

  await card.page().goto("/");
  await home.agent("writing_assistant").getByTestId("agent-start").click();
  await expect(page).toHaveURL(/\/threads\/new\?agent=writing_assistant/);
});

test("local mode: Users and API keys are in the navigation and explain that they need an account", async ({ page }, testInfo) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Users" }).click();
  await expect(page.getByTestId("local-mode-notice")).toContainText("Users need an account");
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expectAccessible(page, "Users in local mode");
  await nav.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByTestId("local-mode-notice")).toContainText("API keys need an account");
  await expect(page.getByRole("link", { name: "Create the administrator account" })).toHaveAttribute("href", "/setup");
  await shot(page, testInfo, "api keys in local mode");
});
