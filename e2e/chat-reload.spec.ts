import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

test("reloading mid-stream resumes the reply where it was and shows the complete reply exactly once", async ({
  page,
  request,
}, testInfo) => {
  const words = Array.from({ length: 100 }, (_, i) => `token${i}`);
  const reply = words.join(" ");
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "long answer" }, token_delay_ms: 100, respond: { content: reply } },
  ]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  const chat = new ChatPage(page);
  await chat.open(id);
  await chat.say("Give me a long answer");
  await expect(page.getByTestId("streaming-text")).toContainText("token5");

  await page.reload();
  // After the reload the half-written reply is back at once (not only the tokens that follow), still streaming.
  const streamed = page.getByTestId("streaming-text");
  await expect(streamed).toContainText("token0 token1 token2");
  await expect(chat.streaming).toHaveCount(1);
  await shot(page, testInfo, "reloaded mid-stream");

  const stored = chat.message("token99");
  await expect(stored).toHaveCount(1, { timeout: 20_000 });
  await expect(stored.getByTestId("message-text")).toHaveText(reply);
  await expect(chat.streaming).toHaveCount(0);
  await expect(chat.fromAuthor("You")).toHaveCount(1);
  // Shown once. The screen-reader announcement (role=status, visually hidden but 1 px for Playwright) may hold the new
  // reply's text, or the status line's if that came later: it is not a copy on screen.
  await expect(
    page.getByText("token30", { exact: false }).filter({ visible: true }).and(page.locator(":not([role=status])")),
  ).toHaveCount(1);
});

test("a dropped connection resumes the event stream without losing or repeating a message", async ({
  page,
  request,
  context,
}) => {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { last_contains: "while offline" },
      delay_ms: 1500,
      respond: { content: "Written while you were offline." },
    },
  ]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  const chat = new ChatPage(page);
  await chat.open(id);
  await chat.say("Answer while offline");
  await expect(chat.fromAuthor("You")).toHaveCount(1);
  await context.setOffline(true);
  await page.waitForTimeout(2500);
  await context.setOffline(false);
  await expect(chat.message("Written while you were offline.")).toHaveCount(1);
  await expect(chat.fromAuthor("You")).toHaveCount(1);
  await expect(chat.status).toHaveText("Waiting for you");
});
