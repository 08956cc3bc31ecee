import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, messages, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

test("Stop interrupts a slow reply; the thread says why it stopped and accepts the next message", async ({
  page,
  request,
}, testInfo) => {
  const slow = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "slowly" }, token_delay_ms: 150, respond: { content: slow } },
    { when: { last_contains: "again" }, respond: { content: "Back with a short answer." } },
  ]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  const chat = new ChatPage(page);
  await chat.open(id);
  await chat.say("Write slowly please");
  await expect(page.getByTestId("streaming-text")).toContainText("word3");
  await expect(chat.stop).toBeVisible();
  await chat.stop.click();

  await expect(chat.status).toContainText("Stopped by you");
  await expect(chat.streaming).toHaveCount(0);
  await expect(chat.stop).toHaveCount(0);
  await expect(chat.threadStatus).toHaveText("Waiting");
  // The interrupted reply was not stored: only the user's message is in the thread.
  expect((await messages(request, id)).map((m) => m.role)).toEqual(["user"]);
  await shot(page, testInfo, "stopped by the user");

  await chat.say("again, shorter");
  await expect(chat.message("Back with a short answer.")).toBeVisible();
  await expect(chat.status).toHaveText("Waiting for you");
});
