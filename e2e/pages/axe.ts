import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** axe finds no serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}`);
  expect(serious, `axe on ${what}`).toEqual([]);
}

/** Switch the app's theme as the toggle does (saved in localStorage, applied before the first paint). */
export async function useTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
}

/** Open a conversation, allowing a loaded machine time for its first paint. */
export async function openChat(page: Page, id: string): Promise<void> {
  await page.goto(`/threads/${id}`);
  await expect(page.getByTestId("composer-input")).toBeVisible({ timeout: 45_000 });
}
