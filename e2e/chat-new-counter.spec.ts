import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { openChat } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";
import { post } from "./pages/inspector-scenario";

test.use({ viewport: { width: 1440, height: 900 } });
// A shared, loaded machine: axe and first paints take their time.
test.describe.configure({ timeout: 180_000 });

test("scrolling up a long thread pages older messages in without calling them new; a real new reply counts", async ({
  page,
  request,
}, testInfo) => {
  const initial = Array.from({ length: 1_200 }, (_, i) => ({
    role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
    content: `Message ${i + 1}: ${"lorem ipsum ".repeat(1 + (i % 5))}`,
  }));
  const id = await createThread(request, { agent_id: "writing_assistant", initial_messages: initial });
  const chat = new ChatPage(page);
  await openChat(page, id);
  await expect(chat.message("Message 1200:")).toBeVisible({ timeout: 30_000 });

  // Home pages every older message in above.
  await chat.scroller.focus();
  await page.keyboard.press("Home");
  await expect(chat.message("Message 1:")).toBeVisible({ timeout: 30_000 });
  const jump = page.getByTestId("jump-to-latest");
  await expect(jump).toHaveText("↓ Jump to latest");
  await shot(page, testInfo, "scrolled to the top");

  // A reply that arrives while the reader is up there is new.
  await setScript(E2E_FAKE_LLM_URL, [{ respond: { content: "A fresh reply." } }]);
  await post(request, id, "One more question");
  await expect(jump).toHaveText("↓ 2 new", { timeout: 15_000 });
  await jump.click();
  await expect(chat.message("A fresh reply.")).toBeVisible();
});
