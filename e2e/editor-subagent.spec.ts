import { expect, test } from "@playwright/test";
import { AgentsDir, diagnostics } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

const NEW_AGENT = `import { defineAgent } from "@studio/spec";

export default defineAgent({
  name: "second_reviewer",
  type: "dual_ai",
  title: "Second reviewer",
  exposeAsTool: true,
  toolDescription: "Review a draft a second time against the brief.",
  maxSessionTurns: 4,
  sideA: { prompt: "drafter", sessionFail: "give_up" },
  sideB: { prompt: "reviewer", sessionStop: { name: "approve_draft", messageProperty: "draft" } },
});
`;

test("create a dual_ai reviewer, connect it as a background resumable subagent, save exactly that", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  // 1. A new dual_ai agent whose sides run the drafter and the reviewer prompts.
  const dialog = await editor.newDefinition("Agent");
  await dialog.getByLabel("Name").fill("second_reviewer");
  await dialog.getByLabel("Type").selectOption("dual_ai");
  await dialog.getByLabel("Title").fill("Second reviewer");
  await dialog.getByLabel("Side A prompt").selectOption("drafter");
  await dialog.getByLabel("Side B prompt").selectOption("reviewer");
  await dialog.getByRole("button", { name: "Create" }).click();
  const agent = editor.node("agent", "second_reviewer");
  await expect(agent).toBeVisible();
  // Unsaved, it already shows what is missing: no sessionStop, no sessionFail, no maxSessionTurns.
  await expect(agent).toHaveAttribute("data-issues", "warning");
  await expect(editor.panel.getByTestId("definition-panel")).toHaveAttribute("data-name", "second_reviewer");

  // 2. The session settings, in the generated form. Invalid input is refused at the field.
  await editor.field("maxSessionTurns").fill("0");
  await expect(editor.fieldFrame("maxSessionTurns").getByTestId("field-error")).toHaveText("maxSessionTurns must be at least 1");
  await editor.field("maxSessionTurns").fill("4");
  await expect(editor.fieldFrame("maxSessionTurns").getByTestId("field-error")).toHaveCount(0);
  await editor.field("exposeAsTool").check();
  await editor.field("toolDescription").fill("Review a draft a second time against the brief.");
  await editor.field("sideA.sessionFail").fill("give_up");
  await editor.field("sideB.sessionStop").fill("approve_draft");
  await editor.fieldFrame("sideB.sessionStop").getByLabel("Map the tool's arguments").check();
  await editor.field("sideB.sessionStop.messageProperty").fill("draft");
  await expect(agent).toHaveAttribute("data-issues", "none");
  await expect(agent.locator('[data-testid="agent-side"][data-side="b"]')).toContainText("stop: approve_draft");

  // 3. Connect: drag from the writing_assistant prompt to the new agent → a subagent entry.
  await editor.fitView();
  await editor.connect(editor.flowNode("prompt", "writing_assistant"), editor.flowNode("agent", "second_reviewer"));
  const edge = editor.edgeLabel("subagent", "writing_assistant", "second_reviewer");
  await expect(edge.getByTestId("subagent-mode")).toHaveText(["blocking", "one-shot"]);
  const entry = editor.panel.getByTestId("entry-form");
  await expect(entry).toBeVisible();
  await entry.getByLabel("Blocking").uncheck();
  await entry.getByLabel("Resumable").check();
  await entry.getByLabel("Max instances").fill("2");
  await expect(edge.getByTestId("subagent-mode")).toHaveText(["background", "resumable ×2 → side_a", "implicit"]);
  await expect(editor.status).toHaveText("2 unsaved changes");

  // 4. Save: one new file, one new line in the prompt file, nothing else; the registry is clean.
  await editor.save();
  expect(dir.read("agents/second_reviewer.ts")).toBe(NEW_AGENT);
  const promptBefore = before.get("prompts/writing_assistant.ts")!;
  expect(dir.read("prompts/writing_assistant.ts")).toBe(
    promptBefore.replace(
      `initAgentNameProperty: "title" },\n`,
      `initAgentNameProperty: "title" },\n    { name: "second_reviewer", blocking: false, resumable: { receives_messages: "side_a", maxInstances: 2 } },\n`,
    ),
  );
  for (const [rel] of dir.list()) {
    if (rel !== "prompts/writing_assistant.ts" && rel !== "agents/second_reviewer.ts") expect(dir.read(rel), rel).toBe(before.get(rel));
  }
  expect(await diagnostics()).toEqual([]);
  // The canvas reflects the file: the edge keeps its mode after the reload.
  await expect(edge.getByTestId("subagent-mode")).toHaveText(["background", "resumable ×2 → side_a", "implicit"]);
  await expect(editor.node("prompt", "writing_assistant")).toContainText("subagent_create, subagent_message (lifecycle)");
});
