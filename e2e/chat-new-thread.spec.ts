import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";
import { NewThreadPage } from "./pages/chat-threads-page";

const SECRET = "tok-SECRET-4f9e1c7d";

test("a new thread asks for the variables its graph requires; a secret never appears in the page after entry", async ({
  page,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "support desk", last_contains: "hello" },
      respond: { content: "Hi! How can I help you today?" },
    },
  ]);
  const form = new NewThreadPage(page);
  // The graph editor's "Try it" link preselects the agent.
  await form.open("support_desk");
  await expect(form.agent).toHaveValue("support_desk");
  const token = form.variable("SUPPORT_API_TOKEN");
  const region = form.variable("SUPPORT_REGION");
  await expect(token).toContainText("required");
  await expect(token).toContainText("secret");
  await expect(token.locator("input")).toHaveAttribute("type", "password");
  await expect(region.locator("input")).toHaveAttribute("type", "text");

  // Nothing filled in: a clear error for each missing value, and no thread is created.
  await form.create.click();
  await expect(form.formError).toBeVisible();
  await expect(form.formError).toContainText("SUPPORT_API_TOKEN is required");
  await expect(form.formError).toContainText("SUPPORT_REGION is required");
  await expect(token.locator("input")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/threads\/new/);
  await shot(page, testInfo, "new thread: missing variables");

  await region.locator("input").fill("eu-west");
  await form.create.click();
  await expect(form.formError).toContainText("SUPPORT_API_TOKEN is required");
  await expect(form.formError).not.toContainText("SUPPORT_REGION");

  await token.locator("input").fill(SECRET);
  await page.getByTestId("tags-input").fill("vip");
  await page.getByTestId("tags-input").press("Enter");
  await expect(page.getByTestId("tag-chip")).toHaveText(/#vip/);
  await page.getByTestId("first-message").fill("hello");
  await form.create.click();

  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);
  const chat = new ChatPage(page);
  await expect(chat.message("Hi! How can I help you today?")).toBeVisible();
  await expect(chat.fromAuthor("You")).toContainText("hello");
  await expect(chat.status).toHaveText("Waiting for you");
  // The details panel lists the thread's variables with the secret masked.
  const details = page.getByRole("button", { name: /Usage & details|Hide details/ });
  if ((await details.getAttribute("aria-expanded")) !== "true") await details.click();
  const env = page.getByTestId("thread-env");
  await expect(env).toContainText("SUPPORT_REGION");
  await expect(env).toContainText("eu-west");
  await expect(env).toContainText("SUPPORT_API_TOKEN");
  await expect(env).toContainText("••••");
  expect(await page.content()).not.toContain(SECRET);
  await shot(page, testInfo, "conversation: secret masked in details");

  // A reload (a fresh render of everything the server sends) does not bring it back either.
  await page.reload();
  await expect(chat.message("Hi! How can I help you today?")).toBeVisible();
  expect(await page.content()).not.toContain(SECRET);
});

test("a dual_ai agent can be started from the form and watched as both sides work", async ({ page }, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "You are the Writer" },
      token_delay_ms: 30,
      respond: { content: "Draft: the office moves to Main Street on 1 June." },
    },
    {
      when: { system_contains: "You are the Reviewer" },
      respond: {
        tool_calls: [
          { name: "approve_draft", arguments: { draft: "Draft: the office moves to Main Street on 1 June." } },
        ],
      },
    },
  ]);
  const form = new NewThreadPage(page);
  await form.open();
  await form.agent.selectOption("draft_and_review");
  await expect(page.getByTestId("first-message")).toHaveAttribute(
    "placeholder",
    /Sent as Reviewer; Writer answers first/,
  );
  await page.getByTestId("first-message").fill("Brief: two sentences about the office move.");
  await form.create.click();
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);
  const chat = new ChatPage(page);
  await expect(chat.fromAuthor("Writer")).toContainText("the office moves to Main Street");
  await expect(chat.toolCall("approve_draft")).toContainText("Done");
  await expect(chat.status).toHaveText("The session ended successfully");
  await shot(page, testInfo, "dual_ai thread watched");
});
