import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

test("a handoff is shown as such and the next reply comes from the new agent", async ({ page, request }, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "support desk", last_role: "user", last_contains: "refund" },
      times: 1,
      respond: { content: "Let me get billing for you.", tool_calls: [{ name: "billing_desk", arguments: {} }] },
    },
    {
      when: { system_contains: "billing desk" },
      token_delay_ms: 20,
      respond: { content: "Billing desk here: your refund of order 1042 is on its way." },
    },
    { when: { system_contains: "support desk" }, respond: { content: "(support again)" } },
  ]);
  const id = await createThread(request, {
    agent_id: "support_desk",
    env: { SUPPORT_API_TOKEN: "t", SUPPORT_REGION: "eu" },
  });
  const chat = new ChatPage(page);
  await chat.open(id);
  await chat.say("I want a refund for order 1042");

  const handoff = page.getByTestId("handoff");
  await expect(handoff).toHaveText(/Handed off to Billing desk/);
  await expect(handoff).toHaveAttribute("data-status", "success");
  const reply = chat.message("Billing desk here");
  await expect(reply).toBeVisible();
  await expect(reply.getByTestId("message-author")).toHaveText("Billing desk");
  await expect(chat.fromAuthor("Support desk")).toContainText("Let me get billing for you.");
  await expect(page.getByTestId("active-agent")).toHaveText("now with Billing desk");
  // The divider sits between the support desk's message and the billing desk's reply.
  const order = await page
    .locator('[data-row="message"], [data-row="handoff"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-row")));
  expect(order).toEqual(["message", "message", "handoff", "message"]);
  await shot(page, testInfo, "handoff");

  // The next message goes to the new agent.
  await chat.say("Thanks, and the invoice?");
  await expect(chat.fromAuthor("Billing desk")).toHaveCount(2);
});
