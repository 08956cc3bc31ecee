import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { childOf, post } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";

test("a spawn waiting for scoped variables shows as pending with a form; providing them boots the child", async ({
  page,
  request,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "You are the inspection lead", last_contains: "Open the vault" },
      times: 1,
      respond: {
        tool_calls: [{ name: "subagent_create", arguments: { agent: "vault_reader", message: "Read entry 7", attachments: [], name: "Vault 7" } }],
      },
    },
    { when: { system_contains: "You are the inspection lead" }, respond: { content: "I need the vault token first." } },
    { when: { system_contains: "You are the Checker" }, respond: { content: "Entry 7 reads: all clear." } },
    { when: { system_contains: "You are the Auditor" }, respond: { tool_calls: [{ name: "approve_verdict", arguments: { verdict: "Entry 7: all clear." } }] } },
  ]);
  const lead = await createThread(request, { agent_id: "insp_lead" });
  const inspector = new InspectorPage(page);
  await inspector.open(lead);
  await post(request, lead, "Open the vault");

  const pending = page.getByTestId("tree-pending");
  await expect(pending).toBeVisible({ timeout: 15_000 });
  await expect(pending).toContainText("vault_reader");
  await expect(pending).toContainText("Vault 7");
  await expect(pending).toContainText("Missing: VAULT_TOKEN");
  const form = page.getByTestId("variables-form");
  await expect(form).toBeVisible();
  const input = form.getByLabel(/VAULT_TOKEN/);
  await expect(input).toHaveAttribute("type", "password");
  await input.fill("vault-token-1234");
  await shot(page, testInfo, "pending variables");
  await form.getByRole("button", { name: "Provide and start" }).click();

  // The child boots with the original payload; the pending row goes away.
  const vault = inspector.named("Vault 7");
  await expect(vault).toBeVisible({ timeout: 15_000 });
  await expect(pending).toHaveCount(0);
  await expect(form).toHaveCount(0);
  const child = await childOf(request, lead, "vault_reader");
  await expect(inspector.status(vault)).toHaveText("idle", { timeout: 15_000 });
  await inspector.select(vault);
  await expect(inspector.messagesBy("Parent").first()).toContainText("Read entry 7");
  await expect(inspector.messagesBy("Reader").first()).toContainText("all clear");
  await inspector.tab("Env").click();
  await expect(page.getByTestId("env-table")).toContainText("VAULT_TOKEN");
  await expect(page.getByTestId("env-value")).toHaveText("••••");
  await expect(page.getByTestId("node-panel")).not.toContainText("vault-token-1234");
  expect(child.reference).toBeTruthy();
});
