import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { expectAccessible } from "./pages/axe";
import { createThread } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";
import { post } from "./pages/inspector-scenario";

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 120_000 });

test("a reply is deleted after a confirmation, stays deleted after a reload, and the next answer does not see it", async ({ page, request }) => {
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "first question" }, respond: { content: "An answer to forget." } },
    { when: { last_contains: "second question" }, respond: { content: "A clean answer." } },
  ]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  await post(request, id, "first question");
  const idle = async () => expect.poll(async () => (await (await request.get(`/api/threads/${id}`)).json()).thread.status, { timeout: 15_000 }).toBe("idle");
  await idle();

  const chat = new ChatPage(page);
  await chat.open(id);
  const reply = chat.message("An answer to forget.");
  await reply.hover();
  await reply.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Delete this message?");
  await expectAccessible(page, "the delete confirmation");
  // Cancel keeps it.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(reply).toHaveCount(1);
  await reply.hover();
  await reply.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(chat.message("An answer to forget.")).toHaveCount(0);
  await page.reload();
  await expect(chat.message("first question")).toHaveCount(1);
  await expect(chat.message("An answer to forget.")).toHaveCount(0);

  await chat.say("second question");
  await expect(chat.message("A clean answer.")).toBeVisible({ timeout: 15_000 });
  const messages = (await (await request.get(`/api/threads/${id}/messages`)).json()).messages as { content: string }[];
  expect(messages.map((m) => m.content)).toEqual(["first question", "second question", "A clean answer."]);
});
