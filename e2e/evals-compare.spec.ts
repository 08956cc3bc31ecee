import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import type { Rule } from "../scripts/fake-llm/script-schema";
import { E2E_AGENTS_DIR, E2E_FAKE_LLM_URL } from "./env";
import { expectAccessible, useTheme } from "./pages/axe";
import { shot } from "./pages/chat-api";
import { EvalsPage } from "./pages/evals-page";

const EVAL = "writing_assistant_basics";
const promptFile = path.join(E2E_AGENTS_DIR, "prompts/writing_assistant.ts");
let original = "";

/** The example eval's scripted answers: the judge's verdict, the word count through the tool, and a greeting. */
const script = (greeting: string): Rule[] => [
  { when: { system_contains: "evaluation judge" }, respond: { content: '{"score": 0.9, "reason": "Answers the request directly."}' } },
  { when: { last_role: "user", last_contains: "one two three" }, respond: { tool_calls: [{ name: "word_count", arguments: { text: "one two three" } }] } },
  { when: { last_role: "tool" }, respond: { content: "Your text has 3 words." } },
  { when: { last_contains: "say hello" }, respond: { content: greeting } },
];

test.beforeAll(() => {
  original = fs.readFileSync(promptFile, "utf8");
});
test.afterAll(() => {
  fs.writeFileSync(promptFile, original);
});

test("run the example eval twice from the UI, the second time with a changed prompt on another model, and compare the two experiments", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const evals = new EvalsPage(page);
  await setScript(E2E_FAKE_LLM_URL, script("Hello! Happy to help."));
  await evals.open();
  await expect(evals.evalRow(EVAL)).toContainText("writing_assistant");
  await expect(evals.evalRow(EVAL)).toContainText("passRate ≥ 1");
  await expectAccessible(page, "the Evals page");

  const before = await evals.experimentRows.count();
  await evals.run(EVAL);
  await evals.expectNewest("passed", before + 1);

  // A prompt change, and a model that now answers the greeting badly.
  fs.writeFileSync(promptFile, original.replace("You are a writing assistant.", "You are a terse writing assistant."));
  await page.waitForTimeout(1500); // the registry reloads the changed file
  await setScript(E2E_FAKE_LLM_URL, script("Goodbye."));
  // This time every prompt runs on the careful model.
  await page.getByLabel("Model").selectOption("careful");
  await evals.run(EVAL);
  await evals.expectNewest("failed", before + 2);

  await evals.compareNewestTwo();
  await expect(page.getByTestId("aggregate-table")).toContainText("Pass rate");
  await expect(page.getByTestId("aggregate-table")).toContainText("-0.50");
  const greeting = evals.compareCase("greeting");
  await expect(greeting).toContainText("Hello! Happy to help.");
  await expect(greeting).toContainText("Goodbye.");
  await expect(greeting).toContainText("mentions_expected -1.00");
  const diff = page.getByTestId("definition-diff");
  await expect(diff).toHaveCount(1);
  await expect(diff).toContainText("prompts/writing_assistant.ts");
  await expect(diff).toContainText("+You are a terse writing assistant.");
  await expectAccessible(page, "the compare view");
  await shot(page, testInfo, "compare view");

  // The failed experiment's page lists each case with its thread.
  await page.getByRole("link", { name: /…/ }).nth(1).click();
  await expect(page.getByRole("heading", { name: `Experiment of ${EVAL}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("experiment-summary")).toContainText("Pass rate 50%");
  await expect(page.getByText(/agent writing_assistant · model careful/)).toBeVisible();
  await expect(page.getByText("Threshold missed: passRate")).toBeVisible();
  await expect(page.getByTestId("case-row")).toHaveCount(2);
  await expectAccessible(page, "the experiment page");
  await shot(page, testInfo, "experiment page");
  await page.getByTestId("case-row").filter({ hasText: "greeting" }).getByRole("link", { name: "Open thread" }).click();
  await expect(page).toHaveURL(/\/threads\/[^/]+\?view=inspector/);
});

test("the Evals page in the dark theme passes the accessibility check", async ({ page }) => {
  await useTheme(page, "dark");
  const evals = new EvalsPage(page);
  await evals.open();
  await expect(evals.evalRow(EVAL)).toBeVisible();
  await expectAccessible(page, "the Evals page (dark)");
});
