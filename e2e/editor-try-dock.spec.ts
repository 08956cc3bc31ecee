import { expect, test, type Page } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { AgentsDir } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

// The first layout alone can take tens of seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });
const dir = new AgentsDir();

const promptText = (page: Page) => page.getByTestId("side-panel").getByTestId("prompt-code-editor");

test("Try it docks the agent's chat in the editor and runs the unsaved draft: the chat answers from an edited prompt, no file is written", async ({ page }) => {
  // The model answers differently when the system prompt holds the draft's sentence: the chat shows which one it got.
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { system_contains: "DRAFT-ONLY RULE: sign as Draftbot.", last_contains: "hello from the editor" }, respond: { content: "Hello back, signed Draftbot." } },
    { when: { last_contains: "hello from the editor" }, respond: { content: "Hello back, from the saved prompt." } },
  ]);
  const saved = dir.read("prompts/billing_clerk.ts");
  const editor = new EditorPage(page);
  await editor.open();

  // An unsaved edit of the agent's prompt text.
  await editor.select("prompt", "billing_clerk");
  await promptText(page).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" DRAFT-ONLY RULE: sign as Draftbot.");
  await expect(editor.status).toHaveText("1 unsaved change");
  await editor.select("agent", "billing_desk");
  await editor.panel.getByRole("button", { name: "▶ Try it" }).click();
  const dialog = page.getByTestId("try-it-dialog");
  await expect(dialog.getByTestId("try-it-draft")).toHaveText("The thread runs your unsaved draft (1 change), checked first; nothing is saved.");
  await dialog.getByRole("button", { name: "Start thread" }).click();

  // The chat docks beside the graph (the page stays the editor, the edit stays pending) and answers from the draft.
  const dock = page.getByTestId("try-dock");
  await expect(dock).toBeVisible();
  await expect(page).toHaveURL(/\/editor$/);
  await expect(dock.getByRole("heading", { name: "Try billing_desk" })).toBeVisible();
  await expect(dock.getByTestId("try-dock-draft")).toHaveText("unsaved draft");
  await dock.getByTestId("composer-input").fill("hello from the editor");
  await dock.getByTestId("send-button").click();
  await expect(dock.getByTestId("message").filter({ hasText: "Hello back, signed Draftbot." })).toBeVisible({ timeout: 20_000 });
  await expect(editor.node("agent", "billing_desk")).toBeVisible();
  await expect(editor.status).toHaveText("1 unsaved change");
  expect(dir.read("prompts/billing_clerk.ts")).toBe(saved);
  const threadId = await dock.getAttribute("data-thread");
  await expect(dock.getByRole("link", { name: "Open in the chat" })).toHaveAttribute("href", new RegExp(`${threadId}`));

  // Closing the dock brings the side panel back.
  await dock.getByRole("button", { name: "Close the chat" }).click();
  await expect(dock).toHaveCount(0);
  await expect(editor.panel).toBeVisible();
});
