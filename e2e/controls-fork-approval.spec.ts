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

test("a grandchild's payment waits for approval; it is approved with edited arguments from the root chat and the tree finishes", async ({ page, request }, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { system_contains: "You are the payment desk", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "pay_team", arguments: { task: "Pay Bea 500" } }] } },
    { when: { system_contains: "You are the payment desk", last_role: "tool" }, respond: { content: "The team reports: Bea was paid." } },
    { when: { system_contains: "You are the payment manager", last_contains: "Pay Bea 500" }, times: 1, respond: { tool_calls: [{ name: "pay_clerk", arguments: { task: "Send 500 to Bea" } }] } },
    { when: { system_contains: "You are the payment manager", last_role: "tool" }, respond: { tool_calls: [{ name: "done_paying", arguments: { result: "Bea was paid" } }] } },
    { when: { system_contains: "You are the payment clerk", last_contains: "Send 500 to Bea" }, times: 1, respond: { tool_calls: [{ name: "send_payment", arguments: { amount: 500, to: "Bea" } }] } },
    { when: { system_contains: "You are the payment clerk", last_role: "tool" }, respond: { tool_calls: [{ name: "done_paying", arguments: { result: "Sent to Bea" } }] } },
  ]);
  const root = await createThread(request, { agent_id: "pay_desk" });
  await post(request, root, "Pay Bea 500 euros");

  const chat = new ChatPage(page);
  await chat.open(root);
  const card = page.getByTestId("approval-card");
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toContainText("send_payment waits for your approval");
  await expect(card).toContainText("pay_team › pay_clerk");
  await expect(card).toContainText('"amount": 500');
  expect((await status(request, root)).waiting_for).toBe("approval");

  // The thread list's filter finds the waiting tree.
  await page.goto("/threads?status=awaiting_approval");
  await expect(page.getByTestId("thread-status-filter")).toHaveValue("awaiting_approval");
  await expect(page.locator(`a[href="/threads/${root}"]`).first()).toBeVisible();
  // Only the clerk's own thread waits; its ancestors are listed around it, marked as context.
  await expect(page.getByTestId("thread-awaiting-approval")).toHaveCount(1);
  await expect(page.locator(`[data-thread="${root}"]`)).toHaveAttribute("data-context", "true");
  await shot(page, testInfo, "threads awaiting approval");
  await expectAccessible(page, "the thread list filtered by awaiting approval");

  await chat.open(root);
  await card.getByRole("button", { name: "Edit arguments" }).click();
  await card.getByLabel("Arguments").fill('{ "amount": 450, "to": "Bea" }');
  await card.getByLabel("Note").fill("Capped at 450");
  await shot(page, testInfo, "approval card editing");
  await expectAccessible(page, "the approval card");
  await card.getByRole("button", { name: "Approve with these arguments" }).click();
  await expect(card).toHaveCount(0, { timeout: 15_000 });
  await expect(chat.message("The team reports: Bea was paid.")).toBeVisible({ timeout: 30_000 });

  // The tool ran once, with the edited arguments, in the grandchild.
  const approvals = (await (await request.get(`/api/threads/${root}/approvals?status=all`)).json()).approvals ?? [];
  expect(Array.isArray(approvals)).toBe(true);
  const mid = (await (await request.get(`/api/threads?parent_id=${root}`)).json()).threads[0].id as string;
  const leaf = (await (await request.get(`/api/threads?parent_id=${mid}`)).json()).threads[0].id as string;
  const leafMessages = (await (await request.get(`/api/threads/${leaf}/messages`)).json()).messages as { role: string; content: string }[];
  expect(leafMessages.filter((m) => m.role === "tool" && m.content.startsWith("Sent"))).toEqual([expect.objectContaining({ content: "Sent 450 EUR to Bea." })]);
});

test("forking from a message and editing a message each open a new thread that links back, and the origin lists its forks", async ({ page, request }, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "favourite colour" }, respond: { content: "Blue, like the sea." } },
    { when: { last_contains: "favourite animal" }, respond: { content: "The otter." } },
    { when: { last_contains: "favourite tree" }, respond: { content: "The oak." } },
  ]);
  const origin = await createThread(request, { agent_id: "writing_assistant" });
  await post(request, origin, "What is your favourite colour?");
  await expect.poll(async () => (await status(request, origin)).status, { timeout: 15_000 }).toBe("idle");
  await post(request, origin, "What is your favourite animal?");
  await expect.poll(async () => (await status(request, origin)).status, { timeout: 15_000 }).toBe("idle");

  const chat = new ChatPage(page);
  await chat.open(origin);
  await expect(chat.message("The otter.")).toBeVisible();
  // Fork at the first reply: the fork holds the first exchange only.
  const firstReply = chat.message("Blue, like the sea.");
  await firstReply.hover();
  await firstReply.getByRole("button", { name: "Fork from here" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/threads/${origin}$`));
  await expect(page.getByTestId("fork-origin")).toContainText("Forked from");
  await expect(chat.message("Blue, like the sea.")).toBeVisible();
  await expect(chat.message("The otter.")).toHaveCount(0);
  const forkUrl = page.url();

  // Edit the second question in the origin: the fork answers the edited text.
  await chat.open(origin);
  const second = chat.message("What is your favourite animal?");
  await second.hover();
  await second.getByRole("button", { name: "Edit and re-run" }).click();
  await second.getByLabel("Edited message").fill("What is your favourite tree?");
  await second.getByRole("button", { name: "Re-run in a fork" }).click();
  await expect(page.getByTestId("fork-origin")).toContainText("Edited and re-run from");
  await expect(chat.message("The oak.")).toBeVisible({ timeout: 20_000 });
  await expect(chat.message("The otter.")).toHaveCount(0);
  await shot(page, testInfo, "edited fork");

  // The origin is unchanged and links both forks.
  await chat.open(origin);
  await expect(chat.message("The otter.")).toBeVisible();
  const forks = page.getByTestId("fork-list");
  await expect(forks).toContainText("2 forks");
  await expect(forks.getByRole("link")).toHaveCount(2);
  await expect(forks.getByRole("link", { name: /edited/ })).toHaveCount(1);
  expect(forkUrl).toContain("/threads/");
  await expectAccessible(page, "a thread with forks");
});
