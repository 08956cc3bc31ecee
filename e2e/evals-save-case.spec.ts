import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_AGENTS_DIR, E2E_FAKE_LLM_URL } from "./env";
import { expectAccessible, openChat } from "./pages/axe";
import { createThread, threadStatus } from "./pages/chat-api";
import { EvalsPage } from "./pages/evals-page";

const EVAL = "writing_assistant_basics";
const casesFile = path.join(E2E_AGENTS_DIR, "evals/writing_assistant_basics.jsonl");
let original = "";

test.beforeAll(() => {
  original = fs.readFileSync(casesFile, "utf8");
});
test.afterAll(() => {
  fs.writeFileSync(casesFile, original);
});

test("save a chat as a case of the eval from the conversation's details panel", async ({ page, request }) => {
  test.setTimeout(120_000);
  await setScript(E2E_FAKE_LLM_URL, [{ when: { last_contains: "Summarise" }, respond: { content: "A short summary." } }]);
  const id = await createThread(request, { agent_id: "writing_assistant", initial_messages: [{ role: "user", content: "Summarise: the cat sat." }] });
  await expect.poll(() => threadStatus(request, id), { timeout: 30_000 }).toBe("idle");
  await openChat(page, id);
  // The details panel starts open on a wide window; open it otherwise.
  const toggle = page.getByRole("button", { name: /^(Usage & details|Hide details)$/ });
  if ((await toggle.textContent())?.trim() !== "Hide details") await toggle.click();
  const panel = page.getByRole("complementary", { name: "Usage and details" });
  await expect(panel.getByRole("heading", { name: "Eval case" })).toBeVisible();
  await expect(panel.getByLabel("Eval", { exact: true })).toHaveValue(EVAL);
  await expectAccessible(page, "the conversation with its details panel");
  await panel.getByRole("button", { name: "Save as case" }).click();
  await expect(panel.getByRole("status")).toContainText(`Saved case thread-${id.slice(0, 8)} to evals/writing_assistant_basics.jsonl`);
  const last = JSON.parse(fs.readFileSync(casesFile, "utf8").trim().split("\n").at(-1)!);
  expect(last).toMatchObject({ input: "Summarise: the cat sat.", expected: "A short summary.", metadata: { source_thread: id } });

  // The Evals page counts the new case.
  const evals = new EvalsPage(page);
  await evals.open();
  await expect(evals.evalRow(EVAL).getByRole("cell").nth(2)).toHaveText("3");
});
