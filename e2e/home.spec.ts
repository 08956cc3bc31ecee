import { expect, test } from "@playwright/test";
import { HomePage } from "./pages/home-page";

test("the home page lists the example agents with no diagnostics", async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  const home = new HomePage(page);
  await home.open();

  const assistant = home.agent("writing_assistant");
  await expect(assistant).toBeVisible();
  await expect(assistant).toContainText("ai_human");
  const reviewer = home.agent("draft_and_review");
  await expect(reviewer).toContainText("dual_ai");
  await expect(reviewer).toContainText("subagent tool");
  await expect(reviewer).toContainText("Writer");
  await expect(reviewer).toContainText("Reviewer");
  await expect(home.noDiagnostics).toBeVisible();
  await expect(page.getByTestId("diagnostic-count")).toHaveText("(0 errors, 0 warnings)");
  expect(consoleErrors).toEqual([]);
});
