import path from "node:path";
import { expect, test } from "@playwright/test";
import { AgentsDir } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
const names = (folder: string) =>
  [...dir.list().keys()].filter((rel) => rel.startsWith(`${folder}/`)).map((rel) => path.basename(rel, ".ts"));

test("the example graph: every agent, prompt, model and tool, the edges between them and each subagent's mode", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();

  // Every definition file is a node (example files are named after the definition they hold).
  for (const name of names("agents")) await expect(editor.node("agent", name)).toHaveCount(1);
  for (const name of names("prompts")) await expect(editor.node("prompt", name)).toHaveCount(1);
  for (const name of names("models")) await expect(editor.node("model", name)).toHaveCount(1);
  for (const name of names("tools")) await expect(editor.node("tool", name)).toHaveCount(1);

  // The agent node shows its type, sides with prompts and session bindings, and its turn cap.
  const dr = editor.node("agent", "draft_and_review");
  await expect(dr).toContainText("dual_ai");
  await expect(dr).toContainText("max 6 session turns");
  await expect(dr.locator('[data-testid="agent-side"][data-side="a"]')).toContainText("Writer → drafter");
  await expect(dr.locator('[data-testid="agent-side"][data-side="a"]')).toContainText("fail: give_up");
  await expect(dr.locator('[data-testid="agent-side"][data-side="b"]')).toContainText("stop: approve_draft");
  await expect(dr.locator('[data-testid="agent-side"][data-side="b"]')).toContainText("status: update_status");
  // Tools used as session lifecycle tools say so.
  await expect(editor.node("tool", "approve_draft").getByTestId("tool-lifecycle")).toContainText("sessionStop · draft_and_review B");

  // Edges: sides, subprompt, includes, fallback, and the subagent edge with its mode at a glance (edge labels show
  // once their text is readable: zoom in).
  await editor.find("prompt", "drafter");
  await expect(editor.canvas).toHaveAttribute("data-detail", "full");
  await expect(editor.edgeLabel("side", "draft_and_review", "drafter")).toContainText("side A");
  await expect(editor.edgeLabel("side", "draft_and_review", "reviewer")).toContainText("side B");
  await expect(editor.edgeLabel("subprompt", "writing_assistant", "polish_text")).toBeVisible();
  await expect(editor.edgeLabel("include", "drafter", "house_style")).toBeVisible();
  await expect(editor.edgeLabel("fallback", "careful", "fast")).toBeVisible();
  const subagent = editor.edgeLabel("subagent", "writing_assistant", "draft_and_review");
  await expect(subagent.getByTestId("subagent-mode")).toHaveText(["blocking", "one-shot"]);
  // Callable tool edges: one per tools entry (5 from writing_assistant's tools of which 3 are callables).
  await expect(page.locator('.react-flow__edge[data-id^="tool:prompt:writing_assistant->"]')).toHaveCount(3);
  await expect(page.locator('.react-flow__edge[data-id^="model:prompt:"]')).toHaveCount(names("prompts").length);

  // Search focuses a node and opens it in the side panel.
  await page.getByLabel("Find a node").fill("give_up (tool)");
  await expect(editor.panel.getByTestId("definition-panel")).toHaveAttribute("data-name", "give_up");
  await expect(editor.panel.getByTestId("read-only-info")).toContainText("Tools are code");

  // Collapse hides what only the subtree reaches, expand brings it back.
  await editor.fitView();
  await editor.node("agent", "draft_and_review").getByTestId("collapse-toggle").click();
  await expect(editor.node("prompt", "reviewer")).toHaveCount(0);
  await expect(editor.node("tool", "approve_draft")).toHaveCount(0);
  await expect(editor.node("tool", "word_count")).toHaveCount(1); // also reached from writing_assistant
  await expect(editor.node("agent", "draft_and_review").getByTestId("collapse-toggle")).toContainText("hidden");
  await editor.node("agent", "draft_and_review").getByTestId("collapse-toggle").click();
  await expect(editor.node("prompt", "reviewer")).toHaveCount(1);
});

test("a chosen root agent shows its tree only", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open("draft_and_review");
  await expect(editor.node("agent", "draft_and_review")).toHaveCount(1);
  await expect(editor.node("prompt", "drafter")).toHaveCount(1);
  await expect(editor.node("tool", "approve_draft")).toHaveCount(1);
  await expect(editor.node("agent", "writing_assistant")).toHaveCount(0);
  await expect(editor.node("tool", "save_note")).toHaveCount(0);
  await page.getByLabel("Root agent").selectOption("");
  await expect(editor.node("agent", "writing_assistant")).toHaveCount(1);
});
