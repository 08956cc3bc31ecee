import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

const REPLY =
  "Here is a short plan for your announcement. First, state the news in one sentence. Then explain why it matters " +
  "to the reader. Finally, say what happens next and who to contact.";

test("a message is shown at once and the reply streams in token by token, then replaces the stream", async ({
  page,
  request,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "announcement" }, token_delay_ms: 100, respond: { content: REPLY } },
  ]);
  const id = await createThread(request, { agent_id: "writing_assistant", tags: ["e2e-stream"] });
  const chat = new ChatPage(page);
  await chat.open(id);
  await expect(chat.status).toHaveText("Waiting for you");

  await chat.say("Help me plan an announcement.");
  await expect(chat.input).toHaveValue("");
  // The user's message shows before the server stores it (optimistic), then as a stored message.
  await expect(page.getByTestId("pending-message").or(chat.fromAuthor("You"))).toContainText(
    "Help me plan an announcement.",
  );

  // Streaming: partial text is visible while the reply is still being written.
  const streamed = page.getByTestId("streaming-text");
  await expect(streamed).toContainText("Here is a short plan");
  const partial = (await streamed.textContent()) ?? "";
  expect(partial.length).toBeLessThan(REPLY.length);
  await expect(chat.status).toContainText(/replying|Working/);
  await shot(page, testInfo, "streaming reply");

  // The stored message replaces the stream: the full reply exactly once, no streaming bubble left.
  await expect(chat.message("who to contact")).toHaveCount(1);
  await expect(chat.streaming).toHaveCount(0);
  await expect(chat.message("who to contact").getByTestId("message-text")).toHaveText(REPLY);
  await expect(chat.fromAuthor("You")).toHaveCount(1);
  await expect(page.getByTestId("pending-message")).toHaveCount(0);
  await expect(chat.status).toHaveText("Waiting for you");
  await shot(page, testInfo, "reply stored");
});
