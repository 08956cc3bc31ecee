import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

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

/** Runs one call of `name` on a `surface` thread and returns the thread's messages over REST. */
async function callTool(name: string) {
  fake.setScript([
    { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name, arguments: {} }] } },
    { respond: { content: "done" } },
  ]);
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "surface" });
  await api(t.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "go" });
  await waitForThread(t.url, body.threadId);
  const messages = (await api(t.url, "GET", `/api/threads/${body.threadId}/messages`)).body.messages;
  return { id: body.threadId as string, messages, tool: messages.find((m: any) => m.role === "tool") };
}

describe("ToolResult: result is optional, stack is kept", () => {
  it("stores a success with only attachments, the file attached to the tool message", async () => {
    const { id, tool } = await callTool("attach_only");
    expect(tool).toMatchObject({ tool_status: "success", content: "", status: "completed" });
    expect(tool.attachments.map((a: any) => a.path)).toEqual(["/attachments/note.txt"]);
    expect(await (await fetch(`${t.url}/api/threads/${id}/fs/attachments/note.txt`)).text()).toBe("ATTACHED");
  });

  it("keeps a returned stack in the tool message's metadata and never sends it to the model", async () => {
    const { tool } = await callTool("stacked");
    expect(tool).toMatchObject({ tool_status: "error", content: "it broke", status: "failed" });
    expect(tool.metadata.stack).toBe("Error: it broke\n    at stacked.ts:7");
    const requests = fake.getRequests();
    expect(JSON.stringify(requests.at(-1))).toContain("it broke");
    expect(JSON.stringify(requests)).not.toContain("stacked.ts:7");
  });
});

describe("Message.status", () => {
  it("is completed on stored messages and failed on a failed tool call", async () => {
    const { messages } = await callTool("stacked");
    expect(messages.map((m: any) => [m.role, m.status])).toEqual([
      ["user", "completed"],
      ["assistant", "completed"],
      ["tool", "failed"],
      ["assistant", "completed"],
    ]);
  });
});

describe("tool tenvs in the spec's z.object form", () => {
  it("loads without a definition error and declares its fields as variables", async () => {
    const diagnostics = (await api(t.url, "GET", "/api/diagnostics")).body.diagnostics;
    expect(diagnostics.filter((d: any) => d.file === "tools/tenv_tool.ts" && d.severity === "error")).toEqual([]);
    const agent = (await api(t.url, "GET", "/api/agents")).body.agents.find((a: any) => a.name === "surface");
    expect(agent.variables).toContainEqual(expect.objectContaining({ name: "SURFACE_STORE", type: "text", required: false }));
    const { tool } = await callTool("tenv_tool");
    expect(tool.content).toBe("store=none");
  });
});

describe("agent icon", () => {
  it("turns an absolute path into a full URL in API responses", async () => {
    const agent = (await api(t.url, "GET", "/api/agents")).body.agents.find((a: any) => a.name === "surface");
    expect(agent.icon).toBe(`${t.url}/icons/surface.svg`);
    const forwarded = await fetch(`${t.url}/api/agents`, { headers: { "x-forwarded-host": "studio.example.com", "x-forwarded-proto": "https" } });
    const viaProxy = ((await forwarded.json()) as any).agents.find((a: any) => a.name === "surface");
    expect(viaProxy.icon).toBe("https://studio.example.com/icons/surface.svg");
  });
});
