import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_AGENTS_DIR, E2E_FAKE_LLM_URL } from "./env";
import { expectAccessible } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

/** Definitions this journey adds while it runs (the registry reloads them), removed afterwards. */
const FILES: Record<string, string> = {
  "models/e2e_responses.ts": `import { defineModel } from "@studio/spec";\nexport default defineModel({ name: "e2e_responses", provider: "openai-responses", model: "o-e2e" });\n`,
  "prompts/e2e_researcher.ts": `import { definePrompt } from "@studio/spec";\nexport default definePrompt({ name: "e2e_researcher", prompt: "You research with tools.", model: "e2e_responses", includeChat: true, providerTools: ["web_search", "code_execution"], reasoning: { effort: "low" } });\n`,
  "agents/e2e_researcher.ts": `import { defineAgent } from "@studio/spec";\nexport default defineAgent({ name: "e2e_researcher", type: "ai_human", sideA: { prompt: "e2e_researcher" } });\n`,
};

test.beforeAll(async ({ request }) => {
  for (const [file, text] of Object.entries(FILES)) fs.writeFileSync(path.join(E2E_AGENTS_DIR, file), text);
  await expect.poll(async () => ((await (await request.get("/api/agents")).json()) as { agents: { name: string }[] }).agents.some((a) => a.name === "e2e_researcher"), { timeout: 30_000 }).toBe(true);
});
test.afterAll(() => {
  for (const file of Object.keys(FILES)) fs.rmSync(path.join(E2E_AGENTS_DIR, file), { force: true });
});

test("an answer on the Responses API shows its thinking (collapsed), the search, the code run and the sources", async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "You research with tools." },
      respond: {
        reasoning: "Search first, then compute.",
        content: "It is **42** degrees.",
        citations: [{ url: "https://example.com/weather", title: "Weather today" }],
        code_run: { code: "print(6*7)", output: "42" },
      },
    },
  ]);
  const id = await createThread(request, { agent_id: "e2e_researcher" });
  const chat = new ChatPage(page);
  await chat.open(id);
  await chat.say("How warm is it?");

  const answer = chat.message("It is 42 degrees.");
  await expect(answer).toBeVisible();
  const thinking = answer.getByRole("button", { name: "Reasoning" });
  await expect(thinking).toHaveAttribute("aria-expanded", "false");
  await expect(answer).not.toContainText("Search first, then compute.");
  await thinking.click();
  await expect(answer).toContainText("Search first, then compute.");

  await expect(answer.getByTestId("provider-tool-calls")).toContainText("Searched the web: scripted search");
  const run = answer.locator('[data-testid="provider-tool-call"][data-name="code_execution"]');
  await run.getByText("Ran code").click();
  await expect(run).toContainText("print(6*7)");
  const source = answer.getByTestId("message-sources").getByRole("link", { name: "Weather today" });
  await expect(source).toHaveAttribute("href", "https://example.com/weather");
  await shot(page, testInfo, "provider tools and sources under the answer");
  // The new blocks keep the contrast and names the other journeys' axe checks require.
  await expectAccessible(page, "an answer with thinking, provider tool calls and sources");
});
