import { expect, test, type Page } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { AgentsDir, diagnostics } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
// The first layout alone can take tens of seconds on a loaded machine.
test.describe.configure({ timeout: 150_000 });
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

const text = (page: Page) => page.getByTestId("side-panel").getByTestId("prompt-code-editor");
const option = (page: Page, label: string) => page.locator(".cm-tooltip-autocomplete li").filter({ hasText: label }).first();

/** Types at the end of the selected prompt's text; `@`-mentions are completed and picked as a user would. */
async function typeWithMention(page: Page, before: string, partial: string, pick: string) {
  await text(page).click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(`${before}@${partial}`);
  await expect(option(page, `@${pick}`)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
}

async function newPrompt(editor: EditorPage, name: string, system: string) {
  const dialog = await editor.newDefinition("Prompt");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Model").selectOption("fast");
  await dialog.getByLabel("System prompt").fill(system);
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(editor.panel.getByTestId("definition-panel")).toHaveAttribute("data-name", name);
}

test("a dual_ai agent from scratch: two prompts with @-mentioned tools, a model from the picker, tried unsaved in the docked chat, then saved as clean files the registry accepts", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  // Side A's prompt: a tool by @-mention, the careful model from the picker.
  await newPrompt(editor, "pitch_writer", "You are the Pitch Writer. Write a two-sentence pitch.");
  await typeWithMention(page, " Check the length with ", "word_c", "word_count");
  await typeWithMention(page, ". If you cannot, call ", "give", "give_up");
  await editor.panel.getByTestId("model-picker").getByRole("radio", { name: /^careful/ }).click();
  await expect(editor.node("prompt", "pitch_writer")).toContainText("careful");
  await expect(editor.node("prompt", "pitch_writer")).toContainText("2 tools");

  // Side B's prompt: the approval tool by @-mention.
  await newPrompt(editor, "pitch_judge", "You are the Pitch Judge.");
  await typeWithMention(page, " When the pitch is good, call ", "approve_dr", "approve_draft");
  await expect(editor.node("prompt", "pitch_judge")).toContainText("1 tool");

  // The agent: dual_ai, the two prompts as its sides, bounded, the judge's approval ends the session.
  const dialog = await editor.newDefinition("Agent");
  await dialog.getByLabel("Name").fill("pitch_pair");
  await dialog.getByLabel("Type").selectOption("dual_ai");
  await dialog.getByLabel("Title").fill("Pitch pair");
  await dialog.getByLabel("Side A prompt").selectOption("pitch_writer");
  await dialog.getByLabel("Side B prompt").selectOption("pitch_judge");
  await dialog.getByRole("button", { name: "Create" }).click();
  await editor.field("maxSessionTurns").fill("3");
  await editor.field("sideA.sessionFail").fill("give_up");
  await editor.field("sideB.sessionStop").fill("approve_draft");
  await expect(editor.node("agent", "pitch_pair")).toHaveAttribute("data-issues", "none");
  await expect(editor.status).toHaveText("3 unsaved changes");

  // Try it in the docked chat before saving: the thread runs the unsaved draft; both sides work, the judge's approval
  // ends the session; nothing is written.
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { system_contains: "You are the Pitch Writer" }, respond: { content: "Pitch: a bakery that delivers by bike." } },
    { when: { system_contains: "You are the Pitch Judge" }, respond: { tool_calls: [{ name: "approve_draft", arguments: { draft: "Pitch: a bakery that delivers by bike." } }] } },
  ]);
  await editor.select("agent", "pitch_pair");
  await editor.panel.getByRole("button", { name: "▶ Try it" }).click();
  await expect(page.getByTestId("try-it-draft")).toHaveText("The thread runs your unsaved draft (3 changes), checked first; nothing is saved.");
  await page.getByTestId("try-it-dialog").getByRole("button", { name: "Start thread" }).click();
  const dock = page.getByTestId("try-dock");
  // A dual_ai thread waits for a first message (sent as side B; side A answers it).
  await dock.getByTestId("composer-input").fill("Brief: a bakery, two sentences.");
  await dock.getByTestId("send-button").click();
  await expect(dock.getByTestId("message").filter({ hasText: "a bakery that delivers by bike" }).first()).toBeVisible({ timeout: 30_000 });
  await expect(dock.getByTestId("tool-call").filter({ has: page.locator('[data-tool="approve_draft"]') })).toBeVisible({ timeout: 30_000 });
  expect(dir.list()).toEqual(before);
  await dock.getByRole("button", { name: "Close the chat" }).click();
  await expect(editor.status).toHaveText("3 unsaved changes");

  // Save through the review: three new files, nothing else changes, and the registry loads them without a problem.
  await editor.save();
  const writer = dir.read("prompts/pitch_writer.ts");
  expect(writer).toContain(`model: "careful"`);
  expect(writer).toContain(`tools: ["word_count", "give_up"]`);
  expect(writer).toContain("Check the length with @word_count. If you cannot, call @give_up");
  expect(dir.read("prompts/pitch_judge.ts")).toContain(`tools: ["approve_draft"]`);
  const agent = dir.read("agents/pitch_pair.ts");
  expect(agent).toContain(`type: "dual_ai"`);
  expect(agent).toMatch(/sideB: \{[^}]*prompt: "pitch_judge"[^}]*sessionStop: "approve_draft"/);
  for (const [rel, t] of dir.list()) if (!["prompts/pitch_writer.ts", "prompts/pitch_judge.ts", "agents/pitch_pair.ts"].includes(rel)) expect(t, rel).toBe(before.get(rel));
  await expect.poll(() => diagnostics()).toEqual([]);

  expect(agent).toMatch(/sideA: \{[^}]*prompt: "pitch_writer"[^}]*sessionFail: "give_up"/);
});
