import { expect, test } from "@playwright/test";
import { E2E_FAKE_LLM_URL } from "./env";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

test("child-agent activity shows as cards that link to the child thread; silent messages are hidden until asked for", async ({
  page,
  request,
}, testInfo) => {
  // The seeded child's last message is the Writer's draft, so its Reviewer takes a turn: it approves at once.
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "You are the Reviewer" },
      respond: {
        tool_calls: [
          { name: "approve_draft", arguments: { draft: "We are moving to a bright new office on Main Street." } },
        ],
      },
    },
  ]);
  const child = await createThread(request, {
    agent_id: "draft_and_review",
    initial_messages: [
      { role: "user", content: "Brief: a 100-word note about the new office." },
      { role: "assistant", content: "Draft: We are moving to a bright new office on Main Street." },
    ],
  });
  const failed = await createThread(request, { agent_id: "draft_and_review" });
  const parent = await createThread(request, {
    agent_id: "writing_assistant",
    initial_messages: [
      { role: "user", content: "Write a note about the new office." },
      { role: "assistant", content: "I asked a writer and a reviewer to draft it." },
      {
        role: "user",
        content: `Subagent (reference: ${child}) has returned the following result:\n\nWe are moving to a bright new office on Main Street.`,
        silent: true,
        metadata: { subagent_id: child },
      },
      {
        role: "user",
        content: `Subagent (reference: ${failed}) has reported a failure:\n\nThe brief has no date for the move.`,
        silent: true,
        metadata: { subagent_id: failed },
      },
      { role: "user", content: "A silent note that only shows on request.", silent: true },
      { role: "assistant", content: "Here is the approved note." },
    ],
  });
  const chat = new ChatPage(page);
  await chat.open(parent);
  const cards = page.getByTestId("child-card");
  await expect(cards).toHaveCount(2);
  const returned = cards.and(page.locator('[data-event="returned"]'));
  await expect(returned).toContainText("Child agent returned a result");
  await expect(returned.getByTestId("thread-status")).toHaveText("Waiting", { timeout: 15_000 });
  const failure = cards.and(page.locator('[data-event="failed"]'));
  await expect(failure).toContainText("Child agent reported a failure");
  await failure.getByRole("button", { name: "Failure details" }).click();
  await expect(failure.getByTestId("child-text")).toContainText("The brief has no date for the move.");
  // Silent messages stay hidden until the toggle shows them.
  await expect(page.getByText("A silent note that only shows on request.")).toHaveCount(0);
  await page.getByTestId("toggle-silent").click();
  await expect(page.getByTestId("toggle-silent")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("A silent note that only shows on request.")).toBeVisible();
  await shot(page, testInfo, "child agent cards");

  await returned.getByTestId("child-link").click();
  await expect(page).toHaveURL(new RegExp(`/threads/${child}$`));
  await expect(chat.message("bright new office")).toBeVisible();
  // dual_ai threads label both sides and let the user post as either.
  await expect(chat.fromAuthor("Writer")).toContainText("bright new office");
  await expect(chat.status).toHaveText("The session ended successfully");
  await expect(page.getByRole("radio", { name: "Reviewer" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Writer" })).not.toBeChecked();
});
