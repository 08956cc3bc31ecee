import { expect, test } from "@playwright/test";
import { AgentsDir, diagnostics } from "./pages/editor-files";
import { EditorPage } from "./pages/editor-page";

const dir = new AgentsDir();
test.beforeEach(() => dir.snapshot());
test.afterEach(() => dir.restore());

const PROMPTS = ["billing_clerk", "drafter", "house_style", "insp_auditor", "insp_checker", "insp_lead", "pay_auditor", "pay_clerk_side", "pay_desk", "pay_manager", "polish_text", "reviewer", "support_agent", "writing_assistant"];

test("the side panel completes prompt and variable names, and what is picked is saved", async ({ page }) => {
  const editor = new EditorPage(page);
  const before = dir.list();
  await editor.open();

  // An agent's side offers every prompt.
  await editor.select("agent", "billing_desk");
  expect((await editor.suggestions(editor.field("sideA.prompt"))).sort()).toEqual(PROMPTS);

  // A prompt's include part offers the other prompts (not itself); a variable part offers the registry's variables.
  await editor.select("prompt", "drafter");
  const parts = editor.fieldFrame("prompt").getByTestId("prompt-part");
  const include = parts.filter({ has: page.getByLabel("Prompt name") }).first().getByLabel("Prompt name");
  expect((await editor.suggestions(include)).sort()).toEqual(PROMPTS.filter((p) => p !== "drafter"));
  await editor.fieldFrame("prompt").getByRole("button", { name: "+ Variable" }).click();
  const variable = parts.last().getByLabel("Variable name");
  const vars = await editor.suggestions(variable);
  expect(vars).toEqual(expect.arrayContaining(["SUPPORT_API_TOKEN", "SUPPORT_REGION"]));
  await variable.fill("SUPPORT_REGION");

  // The variable list of a prompt completes names too.
  await editor.select("prompt", "billing_clerk");
  await editor.fieldFrame("variables").getByRole("button", { name: /Add/ }).first().click();
  const name = editor.field("variables.0.name");
  expect(await editor.suggestions(name)).toEqual(expect.arrayContaining(["SUPPORT_API_TOKEN", "SUPPORT_REGION"]));
  await name.fill("SUPPORT_REGION");
  await expect(editor.status).toHaveText("2 unsaved changes");

  await editor.save();
  const drafter = dir.read("prompts/drafter.ts");
  expect(drafter).toContain(`{ type: "env", property: "SUPPORT_REGION" }`);
  expect(dir.read("prompts/billing_clerk.ts")).toContain(`name: "SUPPORT_REGION"`);
  for (const [rel, text] of dir.list()) if (rel !== "prompts/drafter.ts" && rel !== "prompts/billing_clerk.ts") expect(text, rel).toBe(before.get(rel));
  expect(await diagnostics()).toEqual([]);
});
