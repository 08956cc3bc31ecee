import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

async function callTool(name: string) {
  fake.setScript([
    { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name, arguments: {} }] } },
    { respond: { content: "done" } },
  ]);
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "surface" });
  await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "go" });
  await waitForThread(t.url, body.threadId);
  const messages = (await api(t.url, "GET", `/api/threads/${body.threadId}/messages`)).body.messages;
  return messages.find((m: any) => m.role === "tool");
}

describe("a tool's `uses` declaration", () => {
  it("gives the tool the members it lists, and the thread's identity", async () => {
    expect(await callTool("uses_ok")).toMatchObject({ tool_status: "success", content: "ok:limited" });
  });

  it("makes a use of another member a clear error naming the member and the declaration to extend", async () => {
    const tool = await callTool("uses_bad");
    expect(tool.tool_status).toBe("error");
    expect(tool.content).toBe(
      "Tool uses_bad failed: Tool uses_bad used state.getMessages, which its `uses` declaration does not list. " +
        "Add it in agents/tools/uses_bad.ts: uses: ['readFile', 'getMessages'].",
    );
  });

  it("reports a `uses` entry that is not a ThreadState member as a definition error", async () => {
    const file = path.join(t.agentsDir, "tools", "uses_typo.ts");
    fs.writeFileSync(file, `import { defineTool } from "@studio/spec";\nexport default defineTool({ description: "x", uses: ["readFiles"] as never, execute: () => "" });\n`);
    try {
      const d = await waitFor(async () => {
        const list = (await api(t.url, "GET", "/api/diagnostics")).body.diagnostics;
        return list.find((x: any) => x.file === "tools/uses_typo.ts");
      });
      expect(d).toMatchObject({ severity: "error", field: "uses.0" });
      expect(d.message).toMatch(/"readFiles" is not a ThreadState member/);
    } finally {
      fs.rmSync(file);
    }
  });
});
