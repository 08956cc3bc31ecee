import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { expectAccessible, useTheme } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { CUSTOM_STATUS, post, scriptLeadScenario } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";

test.use({ viewport: { width: 1440, height: 900 } });
// A shared, loaded machine: axe and first paints take their time.
test.describe.configure({ timeout: 180_000 });

test("the Inspector renders replies as markdown, a whole timeline row opens its request, which steps, copies as cURL and shows the exact body", async ({
  page,
  request,
  context,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await setScript(E2E_FAKE_LLM_URL, [{ respond: { content: "A **bold** answer with a list:\n\n- one\n- two" } }]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  await post(request, id, "first question");
  await expect.poll(async () => (await (await request.get(`/api/threads/${id}`)).json()).thread.status, { timeout: 15_000 }).toBe("idle");
  await post(request, id, "second question");
  await expect.poll(async () => (await (await request.get(`/api/threads/${id}`)).json()).thread.status, { timeout: 15_000 }).toBe("idle");

  const inspector = new InspectorPage(page);
  await inspector.open(id);
  await inspector.tab("Conversation").click();
  // Markdown, not raw asterisks.
  await expect(inspector.panel.getByTestId("message-content").locator("strong").first()).toHaveText("bold");
  await expect(inspector.panel.getByText("**bold**")).toHaveCount(0);
  await shot(page, testInfo, "inspector conversation light");
  await expectAccessible(page, "the Inspector");

  await inspector.openTimeline();
  const rows = page.getByTestId("timeline-llm");
  await expect(rows).toHaveCount(2);
  // A click on the row's bar (not its small label) opens the request.
  await rows.first().locator("td").nth(2).click();
  const dialog = page.getByTestId("log-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("log-position")).toHaveText("1 of 2 in this thread");
  await expect(dialog.getByTestId("context-meter")).toBeVisible();
  await expect(dialog.getByTestId("log-prev")).toBeDisabled();
  await page.keyboard.press("]");
  await expect(dialog.getByTestId("log-position")).toHaveText("2 of 2 in this thread");
  await dialog.getByTestId("log-prev").click();
  await expect(dialog.getByTestId("log-position")).toHaveText("1 of 2 in this thread");

  // The exact body as sent, and a cURL command that carries it and names the key's variable, never its value.
  await dialog.getByTestId("log-provider-body").locator("summary").click();
  const body = JSON.parse((await dialog.getByTestId("log-provider-json").textContent()) ?? "{}") as { messages: { content: unknown }[] };
  expect(JSON.stringify(body.messages)).toContain("first question");
  await dialog.getByRole("button", { name: "Copy as cURL" }).click();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain(`${E2E_FAKE_LLM_URL}/v1/chat/completions`);
  expect(curl).toContain("$OPENAI_API_KEY");
  expect(curl).not.toContain("e2e-scripted");
  expect(curl).toContain("first question");
  await shot(page, testInfo, "request log dialog");
  await expectAccessible(page, "the request log dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test("the Inspector's tree keeps agent names whole next to a child's long status, in dark mode", async ({ page, request }, testInfo) => {
  await useTheme(page, "dark");
  await scriptLeadScenario({ reviewerDelayMs: 30_000, checkerDelayMs: 200 });
  const lead = await createThread(request, { agent_id: "insp_lead" });
  await post(request, lead, "Start the work");
  const inspector = new InspectorPage(page);
  await inspector.open(lead);
  const writer = inspector.named("Office note");
  await expect(inspector.status(writer)).toContainText(CUSTOM_STATUS, { timeout: 30_000 });
  const name = writer.getByTestId("node-agent");
  await expect(name).toHaveText("Draft and review");
  expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await shot(page, testInfo, "inspector tree dark");
  await expectAccessible(page, "the Inspector in dark mode");
});
