import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { EditorPage } from "./pages/editor-page";

// The first layout alone can take tens of seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });

test("Try it docks the agent's chat in the editor: start a thread, talk to it, the graph stays; pending edits are said", async ({ page }) => {
  await setScript(E2E_FAKE_LLM_URL, [{ when: { last_contains: "hello from the editor" }, respond: { content: "Hello back, from the docked chat." } }]);
  const editor = new EditorPage(page);
  await editor.open();

  // An unsaved edit: Try it says the thread runs the saved definitions.
  await editor.select("prompt", "drafter");
  await editor.field("includeChat").click();
  await editor.select("agent", "writing_assistant");
  await editor.panel.getByRole("button", { name: "▶ Try it" }).click();
  const dialog = page.getByTestId("try-it-dialog");
  await expect(dialog.getByTestId("try-it-pending")).toHaveText("The thread runs the saved definitions: 1 unsaved change is not in it. Save first to try it.");
  await dialog.getByRole("button", { name: "Start thread" }).click();

  // The chat docks beside the graph (the page stays the editor, the edit stays pending).
  const dock = page.getByTestId("try-dock");
  await expect(dock).toBeVisible();
  await expect(page).toHaveURL(/\/editor$/);
  await expect(dock.getByRole("heading", { name: "Try writing_assistant" })).toBeVisible();
  await dock.getByTestId("composer-input").fill("hello from the editor");
  await dock.getByTestId("send-button").click();
  await expect(dock.getByTestId("message").filter({ hasText: "Hello back, from the docked chat." })).toBeVisible({ timeout: 20_000 });
  await expect(editor.node("agent", "writing_assistant")).toBeVisible();
  await expect(editor.status).toHaveText("1 unsaved change");
  const threadId = await dock.getAttribute("data-thread");
  await expect(dock.getByRole("link", { name: "Open in the chat" })).toHaveAttribute("href", new RegExp(`${threadId}`));

  // Closing the dock brings the side panel back.
  await dock.getByRole("button", { name: "Close the chat" }).click();
  await expect(dock).toHaveCount(0);
  await expect(editor.panel).toBeVisible();
});
