import { expect, test } from "@playwright/test";
import { AgentsDir } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

test("an error introduced in a file shows on its node, with a jump to the field; fixing it clears it", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await expect(editor.nodes()).not.toHaveCount(0);
  await expect(page.locator('[data-testid="editor-node"][data-issues="error"]')).toHaveCount(0);

  // Outside the editor: the reviewer prompt now names a model that does not exist. No reload of the page.
  const original = dir.read("prompts/reviewer.ts");
  const layouts = await editor.layoutCount();
  dir.write("prompts/reviewer.ts", original.replace(`model: "fast"`, `model: "fastest"`));
  const node = editor.node("prompt", "reviewer");
  await expect(node).toHaveAttribute("data-issues", "error", { timeout: 15_000 });
  await editor.findAfterLayout("prompt", "reviewer", layouts);
  await node.getByTestId("node-issues-toggle").click();
  const issue = node.getByTestId("node-issue").first();
  await expect(issue).toContainText(`uses model "fastest", which no model file defines`);
  await expect(issue).toHaveAttribute("data-severity", "error");
  await issue.getByRole("button", { name: "Go to model" }).click();
  await expect(editor.field("model")).toBeFocused();
  await expect(editor.field("model")).toHaveValue("fastest");
  await expect(editor.fieldFrame("model").getByTestId("field-issue")).toContainText("fastest");

  // A syntax error: the file cannot load, and a node for the file says so.
  dir.write("prompts/reviewer.ts", original.replace(`export default definePrompt({`, `export default definePrompt({ name: `));
  const fileNode = editor.node("file", "reviewer");
  await expect(fileNode).toHaveAttribute("data-issues", "error", { timeout: 15_000 });
  await expect(fileNode).toContainText("prompts/reviewer.ts");

  // Fixed on disk: the node is back, clean.
  dir.write("prompts/reviewer.ts", original);
  await expect(node).toHaveAttribute("data-issues", "none", { timeout: 15_000 });
  await expect(editor.node("file", "reviewer")).toHaveCount(0);
});

test("warnings: a dual_ai agent without session bounds, a side B without a job of its own", async ({ page }) => {
  const editor = new EditorPage(page);
  dir.write(
    "agents/echo_pair.ts",
    `import { defineAgent } from "@studio/spec";\n\nexport default defineAgent({\n  name: "echo_pair",\n  type: "dual_ai",\n  sideA: { prompt: "drafter" },\n  sideB: { prompt: "drafter" },\n});\n`,
  );
  await editor.open();
  const node = editor.node("agent", "echo_pair");
  await expect(node).toHaveAttribute("data-issues", "warning", { timeout: 15_000 });
  await editor.find("agent", "echo_pair");
  await node.getByTestId("node-issues-toggle").click();
  const issues = node.getByTestId("node-issue");
  await expect(issues.filter({ hasText: "maxSessionTurns" })).toHaveCount(1);
  await expect(issues.filter({ hasText: "sessionStop" })).toHaveCount(1);
  await expect(issues.filter({ hasText: "sessionFail" })).toHaveCount(1);
  await expect(issues.filter({ hasText: "Both sides run prompt" })).toHaveCount(1);
  await issues.filter({ hasText: "Both sides run prompt" }).getByRole("button").click();
  await expect(editor.field("sideB.prompt")).toBeFocused();
});
