import { expect, test } from "@playwright/test";
import { AgentsDir, diagnostics } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

const SHOUT = `import { defineTool } from "@studio/spec";
import { z } from "zod";

/** Shout a text back in capitals. */
export default defineTool({
  description: "Shout a text back in capitals.",
  args: z.object({
    text: z.string().describe("The text to shout."),
    times: z.number().optional(),
  }),
  execute: async (_state, { text, times }) => {
    void [text, times];
    // Write the tool's code here: return a text, or { status: "error", error: "..." } when it fails.
    return { status: "error", error: "shout is not implemented yet." };
  },
});
`;

test("scaffold a tool file, drag a prompt to it and an agent's side to another prompt, save exactly that", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  // 1. A new tool file: written at once (tools are code), with its arguments as a zod object.
  await page.getByRole("button", { name: "+ New" }).click();
  await page.getByRole("menuitem", { name: "Tool file" }).click();
  const dialog = page.getByTestId("scaffold-tool-dialog");
  await dialog.getByLabel("Name").fill("shout");
  await dialog.getByLabel("Description").fill("Shout a text back in capitals.");
  await dialog.getByRole("button", { name: "+ Argument" }).click();
  await dialog.getByLabel("Argument 1 name").fill("text");
  await dialog.getByLabel("Argument 1 description").fill("The text to shout.");
  await dialog.getByRole("button", { name: "+ Argument" }).click();
  await dialog.getByLabel("Argument 2 name").fill("times");
  await dialog.getByLabel("Argument 2 type").selectOption("number");
  await dialog.getByLabel("optional").nth(1).check();
  const layouts = await editor.layoutCount();
  await dialog.getByRole("button", { name: "Create file" }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => dir.exists("tools/shout.ts")).toBe(true);
  expect(dir.read("tools/shout.ts")).toBe(SHOUT);
  await expect(editor.node("tool", "shout")).toHaveCount(1);
  await expect(editor.panel.getByTestId("definition-panel")).toHaveAttribute("data-name", "shout");
  // A second file of the same name is refused, and the first stays as it was.
  await page.getByRole("button", { name: "+ New" }).click();
  await page.getByRole("menuitem", { name: "Tool file" }).click();
  await dialog.getByLabel("Name").fill("shout");
  await dialog.getByLabel("Description").fill("Another shout.");
  await dialog.getByRole("button", { name: "Create file" }).click();
  await expect(dialog.getByRole("alert")).toContainText("shout");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect(dir.read("tools/shout.ts")).toBe(SHOUT);

  // 2. Drag the billing_clerk prompt onto the new tool: the prompt offers it.
  await expect.poll(() => editor.layoutCount()).toBeGreaterThan(layouts);
  await editor.fitView();
  await editor.connect(editor.flowNode("prompt", "billing_clerk"), editor.flowNode("tool", "shout"));
  await expect(page.locator(`.react-flow__edge[aria-label="tool edge from billing_clerk to shout"]`)).toHaveCount(1);
  await expect(editor.node("prompt", "billing_clerk")).toContainText("2 tools");

  // 3. Drag support_desk's side A onto billing_clerk: the side runs that prompt now.
  await editor.fitView();
  await editor.connect(editor.flowNode("agent", "support_desk"), editor.flowNode("prompt", "billing_clerk"), "side-a");
  await expect(editor.edgeLabel("side", "support_desk", "billing_clerk")).toHaveCount(1);
  await expect(editor.edgeLabel("side", "support_desk", "support_agent")).toHaveCount(0);
  await expect(editor.node("agent", "support_desk").locator('[data-testid="agent-side"][data-side="a"]')).toContainText("billing_clerk");
  await expect(editor.status).toHaveText("2 unsaved changes");

  // 4. Save: one line in each of the two files, nothing else.
  await editor.save();
  expect(dir.read("prompts/billing_clerk.ts")).toBe(before.get("prompts/billing_clerk.ts")!.replace(`tools: ["word_count"]`, `tools: ["word_count", "shout"]`));
  expect(dir.read("agents/support_desk.ts")).toBe(before.get("agents/support_desk.ts")!.replace(`prompt: "support_agent"`, `prompt: "billing_clerk"`));
  expect(dir.read("tools/shout.ts")).toBe(SHOUT);
  for (const [rel, text] of dir.list()) if (!["prompts/billing_clerk.ts", "agents/support_desk.ts", "tools/shout.ts"].includes(rel)) expect(text, rel).toBe(before.get(rel));
  expect(await diagnostics()).toEqual([]);
});
