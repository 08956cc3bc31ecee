import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { expectAccessible } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { post } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 180_000 });

test("a logged request replays on another model and, edited, on its own; old and new answers side by side, the thread untouched", async ({ page, request }, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "haiku about rain" }, times: 1, respond: { content: "Soft rain on the roof." } },
    { when: { model: "gpt-4.1", last_contains: "haiku about rain" }, respond: { content: "Grey clouds, falling notes." } },
    { when: { last_contains: "haiku about snow" }, respond: { content: "White hush on the hills." } },
  ]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  await post(request, id, "Write a haiku about rain");
  await expect.poll(async () => (await (await request.get(`/api/threads/${id}`)).json()).thread.status, { timeout: 15_000 }).toBe("idle");
  const messagesBefore = (await (await request.get(`/api/threads/${id}/messages`)).json()).messages.length;

  const inspector = new InspectorPage(page);
  await inspector.open(id);
  await inspector.openTimeline();
  await page.getByTestId("timeline-llm").first().locator("td").nth(2).click();
  const dialog = page.getByTestId("log-dialog");
  await dialog.getByTestId("log-replay").locator("summary").click();
  const panel = dialog.getByTestId("replay-panel");

  // Another model: the logged answer and the new one side by side.
  await panel.getByTestId("replay-model").selectOption("careful");
  await panel.getByTestId("replay-run").click();
  await expect(panel.getByTestId("replay-original-content")).toHaveText("Soft rain on the roof.");
  await expect(panel.getByTestId("replay-new-content")).toHaveText("Grey clouds, falling notes.");
  await expect(panel.getByTestId("replay-new")).toContainText("careful");
  await shot(page, testInfo, "replay on another model");
  await expectAccessible(page, "the replay comparison");

  // An edited body on the logged model.
  await panel.getByTestId("replay-model").selectOption("fast");
  const body = panel.getByTestId("replay-body");
  await body.fill((await body.inputValue()).replace("haiku about rain", "haiku about snow"));
  await expect(panel.getByTestId("replay-run")).toHaveText("Replay edited request");
  await panel.getByTestId("replay-run").click();
  await expect(panel.getByTestId("replay-new-content")).toHaveText("White hush on the hills.");
  await expect(panel.getByTestId("replay-new")).toContainText("edited request");

  // Broken JSON is refused before anything is sent.
  await body.fill("{ not json");
  await panel.getByTestId("replay-run").click();
  await expect(panel.getByRole("alert")).toContainText("Request body");

  // The thread did not change.
  expect((await (await request.get(`/api/threads/${id}/messages`)).json()).messages.length).toBe(messagesBefore);
  expect((await (await request.get(`/api/threads/${id}/logs`)).json()).logs.length).toBe(1);
});
