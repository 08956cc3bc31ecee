import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

const PAYLOAD = [
  "Here you go: <script>window.__xss = 'script'</script>",
  '<img src="x" onerror="window.__xss = \'img\'">',
  "[click me](javascript:window.__xss='link')",
  "<a href=\"javascript:window.__xss='anchor'\">raw anchor</a>",
  "```html\n<script>window.__xss = 'code'</script>\n```",
].join("\n\n");

test("an XSS payload in a model reply renders as inert text", async ({ page, request }, testInfo) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await setScript(E2E_FAKE_LLM_URL, [{ when: { last_contains: "payload" }, respond: { content: PAYLOAD } }]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  const chat = new ChatPage(page);
  await chat.open(id);
  await chat.say('Show me the payload <script>window.__xss = "user"</script>');

  const reply = chat.message("Here you go");
  await expect(reply).toBeVisible();
  const text = reply.getByTestId("message-text");
  // Raw HTML is shown as the characters it is made of.
  await expect(text).toContainText("<script>window.__xss = 'script'</script>");
  await expect(text).toContainText(`<img src="x" onerror="window.__xss = 'img'">`);
  await expect(page.getByTestId("code-block")).toContainText("<script>window.__xss = 'code'</script>");
  await expect(chat.fromAuthor("You")).toContainText('<script>window.__xss = "user"</script>');
  // No element the payload asked for exists, and the javascript: link has no href.
  expect(await page.locator("main script, main img[onerror], main [onerror]").count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  const link = text.getByText("click me");
  await expect(link).toBeVisible();
  await link.click();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await shot(page, testInfo, "xss payload as text");
});
