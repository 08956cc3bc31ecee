import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { expectAccessible } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";
import { post } from "./pages/inspector-scenario";

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 180_000 });

const status = async (request: import("@playwright/test").APIRequestContext, id: string) =>
  (await (await request.get(`/api/threads/${id}`)).json()).thread;

test("a user edits a message, then regenerates the reply of the edited branch: each step is a new branch and the old ones stay as they were", async ({ page, request }, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "favourite river" }, times: 1, respond: { content: "The Danube." } },
    { when: { last_contains: "favourite river" }, respond: { content: "The Loire, on second thought." } },
    { when: { last_contains: "favourite mountain" }, respond: { content: "Mont Blanc." } },
  ]);
  const origin = await createThread(request, { agent_id: "writing_assistant" });
  await post(request, origin, "What is your favourite mountain?");
  await expect.poll(async () => (await status(request, origin)).status, { timeout: 20_000 }).toBe("idle");

  const chat = new ChatPage(page);
  await chat.open(origin);
  await expect(chat.message("Mont Blanc.")).toBeVisible();

  // Edit the question: a branch answers the edited text.
  const question = chat.message("What is your favourite mountain?");
  await question.hover();
  await question.getByRole("button", { name: "Edit and re-run" }).click();
  await question.getByLabel("Edited message").fill("What is your favourite river?");
  await question.getByRole("button", { name: "Re-run in a fork" }).click();
  await expect(page.getByTestId("fork-origin")).toContainText("Edited and re-run from");
  await expect(chat.message("The Danube.")).toBeVisible({ timeout: 30_000 });
  const edited = page.url().split("/threads/")[1]!;
  expect(edited).not.toBe(origin);

  // Regenerate that reply: another branch, answering the same question again.
  const reply = chat.message("The Danube.");
  await reply.hover();
  await reply.getByRole("button", { name: "Regenerate" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/threads/${edited}$`));
  await expect(page.getByTestId("fork-origin")).toContainText("Regenerated from");
  await expect(chat.message("The Loire, on second thought.")).toBeVisible({ timeout: 30_000 });
  await expect(chat.message("The Danube.")).toHaveCount(0);
  await expect(chat.message("What is your favourite river?")).toBeVisible();
  await shot(page, testInfo, "regenerated branch");
  await expectAccessible(page, "a regenerated branch");

  // The edited branch still holds its first reply and lists the regeneration; the origin is unchanged.
  await chat.open(edited);
  await expect(chat.message("The Danube.")).toBeVisible();
  await expect(chat.message("The Loire, on second thought.")).toHaveCount(0);
  const forks = page.getByTestId("fork-list");
  await expect(forks.getByRole("link", { name: /regenerated/ })).toHaveCount(1);
  await chat.open(origin);
  await expect(chat.message("Mont Blanc.")).toBeVisible();
  await expect(chat.message("The Danube.")).toHaveCount(0);
  await expect(page.getByTestId("fork-list").getByRole("link", { name: /edited/ })).toHaveCount(1);
  await expectAccessible(page, "the origin with its edited branch");
});
