import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

test.use({ viewport: { width: 390, height: 844 } });

test("at a phone width, in the dark theme, the conversation fits the screen and is usable by keyboard", async ({
  page,
  request,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { last_role: "user" },
      times: 1,
      respond: {
        content: "Checking the length.",
        tool_calls: [{ name: "word_count", arguments: { text: "a rather long sentence to count" } }],
      },
    },
    {
      when: { last_role: "tool" },
      respond: { content: "It has **6 words**.\n\n```\nwords: 6\n```\n\n| metric | value |\n|---|---|\n| words | 6 |" },
    },
  ]);
  await page.addInitScript(() => localStorage.setItem("theme", "dark"));
  const id = await createThread(request, { agent_id: "writing_assistant", tags: ["phone"] });
  const chat = new ChatPage(page);
  await chat.open(id);
  await expect(page.locator("html")).toHaveClass(/dark/);

  // Keyboard only: the composer has focus, Enter sends.
  await expect(chat.input).toBeFocused();
  await page.keyboard.type("How long is: a rather long sentence to count");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("Thanks!");
  await expect(chat.input).toHaveValue("How long is: a rather long sentence to count\nThanks!");
  await page.keyboard.press("Enter");
  await expect(chat.message("It has 6 words.")).toBeVisible();
  await expect(chat.fromAuthor("You")).toContainText("Thanks!");

  // Nothing sticks out sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(chat.input).toBeInViewport();
  await shot(page, testInfo, "phone, dark theme");

  // The tool card opens from the keyboard.
  const toggle = chat.toolCall("word_count").getByRole("button").first();
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  // Details open as a panel over the conversation.
  await page.getByRole("button", { name: "Usage & details" }).click();
  await expect(page.getByTestId("usage-panel")).toBeVisible();
  await expect(page.getByTestId("usage-requests")).toHaveText("2");
  await shot(page, testInfo, "phone, usage panel");
});
