import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

test("a tool call shows as a card with its arguments, result and duration; a subprompt shows as such", async ({
  page,
  request,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { last_role: "user", last_contains: "count" },
      times: 1,
      respond: {
        content: "Let me count.",
        tool_calls: [{ name: "word_count", arguments: { text: "one two three four" } }],
      },
    },
    {
      when: { last_role: "user", last_contains: "polish" },
      times: 1,
      respond: { tool_calls: [{ name: "polish_text", arguments: { text: "this are good" } }] },
    },
    { when: { system_contains: "You are an editor" }, respond: { content: "This is **good**." } },
    {
      when: { last_role: "tool", any_contains: "4 words" },
      times: 1,
      respond: { content: "Your text has **4 words**." },
    },
    { when: { last_role: "tool" }, respond: { content: "Polished." } },
  ]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  const chat = new ChatPage(page);
  await chat.open(id);
  await chat.say("Please count the words in: one two three four");

  const card = chat.toolCall("word_count");
  await expect(card).toBeVisible();
  await expect(chat.message("Your text has 4 words.")).toBeVisible();
  await expect(card).toContainText("Done");
  await expect(card.getByTestId("tool-duration")).toHaveText(/\d+(\.\d+)? (ms|s)/);
  // Collapsed by default; opens to the arguments and the result.
  await expect(card.getByTestId("tool-arguments")).toHaveCount(0);
  await card.getByRole("button").first().click();
  await expect(card.getByRole("button").first()).toHaveAttribute("aria-expanded", "true");
  await expect(card.getByTestId("tool-arguments")).toContainText('"text": "one two three four"');
  await expect(card.getByTestId("tool-result")).toContainText("4 words");
  await shot(page, testInfo, "tool call card open");

  await chat.say("polish this are good");
  const sub = chat.toolCall("polish_text");
  await expect(sub).toContainText("Subprompt");
  await expect(chat.message("Polished.")).toBeVisible();
  await sub.getByRole("button").first().click();
  await expect(sub.getByTestId("tool-result")).toContainText("This is good.");

  // After a reload the card still shows its duration (read back from the event log).
  await page.reload();
  await expect(chat.toolCall("word_count").getByTestId("tool-duration")).toBeVisible();
});
