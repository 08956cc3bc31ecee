import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

/**
 * A prompt's `providerTools: ["web_search"]` on each native provider, through its real SDK: the request offers the
 * provider's own search tool; the search (`metadata.provider_tool_calls`) and the pages it cites (`metadata.citations`)
 * are kept on the assistant message.
 */
let fake: FakeLlm;
let t: TestApp;
let agentsDir: string;

const CITATIONS = [
  { url: "https://example.com/weather", title: "Weather today" },
  { url: "https://example.org/forecast", title: "Forecast" },
];

beforeAll(async () => {
  fake = await startFakeLlm({
    script: [
      { when: { system_contains: "Compute with code." }, respond: { content: "It is 42.", code_run: { code: "print(6*7)", output: "42" } } },
      { respond: { content: "Sunny, say the sources.", citations: CITATIONS } },
    ],
  });
  agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "provider-tools-"));
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  for (const f of ["anthropic-provider", "google-provider", "openai-responses-provider", "provider-tools"]) {
    fs.cpSync(path.join(import.meta.dirname, "../fixtures", f), agentsDir, { recursive: true });
  }
  const root = fake.url.replace(/\/v1$/, "");
  t = await startTestApp({ agentsSource: agentsDir, env: { OPENAI_BASE_URL: fake.url, ANTHROPIC_BASE_URL: root, GEMINI_BASE_URL: root } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  fs.rmSync(agentsDir, { recursive: true, force: true });
});

async function run(agent: string) {
  fake.clearRequests();
  const id = (await api(t.url, "POST", "/api/threads", { agent_id: agent })).body.threadId;
  expect((await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "weather?" })).status).toBe(202);
  await waitForThread(t.url, id);
  const messages = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages;
  const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
  return { answer: messages.at(-1), logs, body: fake.getRequests()[0]!.body };
}

describe("provider-run web search", () => {
  it.each([
    ["search_responses", (body: any) => expect(body.tools).toEqual([{ type: "web_search" }])],
    ["search_anthropic", (body: any) => expect(body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 5 }])],
    ["search_google", (body: any) => expect(body.tools).toEqual([{ googleSearch: {} }])],
  ])("%s offers the provider's search tool and keeps the citations on the answer", async (agent, checkTools) => {
    const { answer, logs, body } = await run(agent);
    checkTools(body);
    expect(answer.content).toBe("Sunny, say the sources.");
    expect(answer.metadata.citations).toEqual(CITATIONS);
    // The search itself is kept with the answer: which tool ran, with what query.
    expect(answer.metadata.provider_tool_calls).toEqual([{ name: "web_search", input: "scripted search" }]);
    expect(logs.at(-1).response.web_search_results).toEqual(CITATIONS);
  });

  it.each([
    ["code_responses", [{ type: "code_interpreter", container: { type: "auto" } }]],
    ["code_anthropic", [{ type: "code_execution_20250825", name: "code_execution" }]],
    ["code_google", [{ codeExecution: {} }]],
  ])("%s offers the provider's code tool and keeps the code and its output with the answer", async (agent, tools) => {
    const { answer, body } = await run(agent);
    expect(body.tools).toEqual(tools);
    expect(answer.content).toBe("It is 42.");
    expect(answer.metadata.provider_tool_calls).toEqual([{ name: "code_execution", input: "print(6*7)", output: "42" }]);
  });
});
