import { expect, test } from "@playwright/test";

const row = (page: import("@playwright/test").Page, name: string) => page.locator(`[data-testid="definition-row"][data-name="${name}"]`);

test("list pages: prompts, models, tools and endpoints with search and what uses each one", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "All definitions" }).click();
  await expect(page).toHaveURL(/\/definitions\/prompts$/);
  await expect(page.getByRole("heading", { name: "Prompts" })).toBeVisible();

  // A prompt says its model, its tools and who uses it (an agent's side, another prompt's tools).
  await expect(row(page, "drafter").getByTestId("row-summary")).toContainText("model careful · 2 tools · Writes a draft from a brief");
  await expect(row(page, "drafter").getByTestId("row-used-by")).toContainText("agent draft_and_review (side A)");
  await expect(row(page, "polish_text").getByTestId("row-used-by")).toContainText("prompt writing_assistant (subprompt)");
  await expect(row(page, "house_style").getByTestId("row-used-by")).toContainText("prompt drafter (include)");

  // Search narrows by name, summary or user.
  await page.getByLabel("Search prompts").fill("draft_and_review");
  await expect(page.getByTestId("definition-row")).toHaveCount(2);
  await expect(row(page, "drafter")).toBeVisible();
  await expect(row(page, "reviewer")).toBeVisible();
  await page.getByLabel("Search prompts").fill("no such thing");
  await expect(page.getByText("Nothing matches.")).toBeVisible();

  // Models: provider, model id, price and capabilities; used by prompts and as a fallback.
  await page.getByRole("navigation", { name: "Definition kinds" }).getByRole("link", { name: "Models" }).click();
  await expect(page).toHaveURL(/\/definitions\/models$/);
  await expect(row(page, "careful").getByTestId("row-summary")).toContainText("openai · gpt-4.1 · $2 / $8 per M tokens");
  await expect(row(page, "careful").getByTestId("row-used-by")).toContainText("prompt drafter (model)");
  await expect(row(page, "fast").getByTestId("row-used-by")).toContainText("model careful (fallback)");

  // Tools: the shared tool lists every prompt that offers it; lifecycle tools name their agent.
  await page.goto("/definitions/tools");
  const wordCount = row(page, "word_count").getByTestId("row-used-by");
  await expect(wordCount).toContainText("prompt drafter (tool)");
  await expect(wordCount).toContainText("prompt writing_assistant (tool)");
  await expect(row(page, "approve_draft").getByTestId("row-used-by")).toContainText("agent draft_and_review");
  await page.getByLabel("Search tools").fill("writing_assistant");
  await expect(row(page, "word_count")).toBeVisible();
  await expect(row(page, "approve_draft")).toHaveCount(0);

  // Endpoints: the thread endpoint and the controller, by method and route.
  await page.goto("/definitions/endpoints");
  await expect(page.getByTestId("definition-row").filter({ hasText: "/notes/:slug" }).first()).toContainText("thread endpoint");
  await expect(page.getByTestId("definition-row").filter({ hasText: "draft-request" })).toContainText("POST");
  await expect(page.getByTestId("definition-row").filter({ hasText: "draft-request" })).toContainText("controller");

  // Hooks and effects pages exist (the example registry has none), and an unknown kind is the app's 404.
  await page.goto("/definitions/hooks");
  await expect(page.getByRole("heading", { name: "Hooks" })).toBeVisible();
  await page.goto("/definitions/effects");
  await expect(page.getByRole("heading", { name: "Effects" })).toBeVisible();
  expect((await page.goto("/definitions/widgets"))?.status()).toBe(404);
});
