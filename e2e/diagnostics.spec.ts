import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_AGENTS_DIR } from "./env";
import { HomePage } from "./pages/home-page";

const brokenFile = path.join(E2E_AGENTS_DIR, "agents", "broken_agent.ts");

test.afterEach(() => fs.rmSync(brokenFile, { force: true }));

test("a broken definition shows up live with file, field and message, and clears once fixed", async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await expect(home.noDiagnostics).toBeVisible();
  const before = await home.agentCards.count();

  // A dual_ai agent without sideB and with an unknown prompt: the page updates without a reload.
  fs.writeFileSync(
    brokenFile,
    `import { defineAgent } from "@studio/spec";\nexport default defineAgent({ name: "broken_agent", type: "dual_ai", maxSessionTurns: 4, sideA: { prompt: "no_such_prompt" } });\n`,
  );
  const diag = home.diagnosticFor("agents/broken_agent.ts");
  await expect(diag.first()).toBeVisible({ timeout: 15_000 });
  await expect(diag.filter({ hasText: "sideB" }).first()).toBeVisible();
  await expect(diag.filter({ hasText: "no_such_prompt" }).first()).toBeVisible();
  // The other definitions still load.
  await expect(home.agent("writing_assistant")).toBeVisible();
  await expect(home.agent("draft_and_review")).toBeVisible();

  // A syntax error is reported too, and does not take the others down.
  fs.writeFileSync(brokenFile, `export default defineAgent({ name: "broken_agent", sideA: { prompt: \n`);
  await expect(home.diagnosticFor("agents/broken_agent.ts").first()).toBeVisible({ timeout: 15_000 });
  await expect(home.agent("writing_assistant")).toBeVisible();

  // Removing the file clears every diagnostic without a restart.
  fs.rmSync(brokenFile);
  await expect(home.noDiagnostics).toBeVisible({ timeout: 15_000 });
  await expect(home.agentCards).toHaveCount(before);
});
