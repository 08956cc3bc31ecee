import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, useToken, type TestApp } from "../helpers/test-app";

// Our agents as an MCP server: the official SDK client lists and calls the agents exposed as tools over /api/mcp.

let fake: FakeLlm;
let t: TestApp;
let agentsDir: string;
let mcpKey: string;
let readKey: string;
let sessionToken: string;

beforeAll(async () => {
  fake = await startFakeLlm();
  agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-endpoint-"));
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  fs.writeFileSync(
    path.join(agentsDir, "prompts/topic_writer.ts"),
    `import { definePrompt } from "@studio/spec";
import { z } from "zod";
export default definePrompt({
  name: "topic_writer",
  prompt: "You write about a topic.",
  model: "primary",
  requiredSchema: z.object({ topic: z.string().describe("What to write about"), words: z.number().int().describe("How many words") }),
  tools: ["echo"],
});\n`,
  );
  fs.writeFileSync(
    path.join(agentsDir, "agents/topic_writer.ts"),
    `import { defineAgent } from "@studio/spec";
export default defineAgent({ name: "topic_writer", type: "ai_human", exposeAsTool: true, toolDescription: "Writes a short text about a topic", sideA: { prompt: "topic_writer" } });\n`,
  );
  t = await startTestApp({ agentsDir, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-12345" } });
  const login = await api(t.url, "POST", "/api/auth/login", { username: "admin", password: "pw-admin-12345" });
  sessionToken = login.body.token;
  useToken(sessionToken);
  mcpKey = (await api(t.url, "POST", "/api/auth/keys", { name: "mcp client", scopes: ["mcp"] })).body.key;
  readKey = (await api(t.url, "POST", "/api/auth/keys", { name: "reader", scopes: ["threads:read", "threads:write"] })).body.key;
  useToken(null);
}, 60_000);

afterAll(async () => {
  useToken(null);
  await t?.close();
  await fake?.close();
  if (agentsDir) fs.rmSync(agentsDir, { recursive: true, force: true });
});

async function connect(key: string | null): Promise<Client> {
  const client = new Client({ name: "endpoint-test", version: "1.0.0" });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers } }));
  return client;
}

describe("/api/mcp", () => {
  it("refuses a client without an API key, a key without the mcp scope, and a session token", async () => {
    const refusal = async (key: string | null) => (await connect(key).catch((e: unknown) => e)) as { code?: number; message: string };
    const none = await refusal(null);
    expect(none.code).toBe(401);
    expect(none.message).toContain('"code":"UNAUTHORIZED"');
    const scoped = await refusal(readKey);
    expect(scoped.code).toBe(403);
    expect(scoped.message).toContain("This API key lacks the mcp scope");
    const session = await refusal(sessionToken);
    expect(session.code).toBe(401);
    expect(session.message).toContain("The MCP endpoint needs an API key with the mcp scope");
  });

  it("lists every agent exposed as a tool, with its description and its side A prompt's requiredSchema", async () => {
    const client = await connect(mcpKey);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((x) => x.name);
      expect(names).toContain("topic_writer");
      expect(names).toContain("helpdesk");
      expect(names).not.toContain("surface");
      const writer = tools.find((x) => x.name === "topic_writer")!;
      expect(writer.description).toBe("Writes a short text about a topic");
      expect(writer.inputSchema.required).toEqual(["topic", "words"]);
      expect(writer.inputSchema.properties).toMatchObject({ topic: { type: "string", description: "What to write about" }, words: { type: "integer" } });
    } finally {
      await client.close();
    }
  });

  it("runs a call in a new thread of the key's user, with progress notifications, and answers with the result and the thread id", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "draft" } }] } },
      { when: { last_role: "tool" }, respond: { content: "Otters hold hands while they sleep." } },
    ]);
    const client = await connect(mcpKey);
    const progress: { progress: number; message?: string }[] = [];
    try {
      const result = await client.callTool({ name: "topic_writer", arguments: { topic: "otters", words: 7 } }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: "text", text: "Otters hold hands while they sleep." }]);
      const structured = result.structuredContent as { threadId: string; status: string };
      expect(structured.status).toBe("idle");
      expect(progress.map((p) => p.message)).toEqual(expect.arrayContaining(["the agent is thinking", "calling echo", "echo finished"]));
      expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));

      // The thread belongs to the key's user.
      const thread = await t.app.runtime.getThread(structured.threadId);
      expect(thread.agentId).toBe("topic_writer");
      const admin = await t.app.prisma.user.findFirstOrThrow({ where: { username: "admin" } });
      expect(thread.userId).toBe(admin.id);
      const first = (await t.app.persistence.messages.list(structured.threadId)).find((m) => m.role === "user");
      expect(JSON.parse(first!.content!)).toEqual({ topic: "otters", words: 7 });
    } finally {
      await client.close();
    }
  });

  it("answers arguments that do not fit the schema with a tool error naming the field, and starts no thread", async () => {
    const before = (await t.app.persistence.threads.list({ agentId: "topic_writer", limit: 100, offset: 0 })).total;
    const client = await connect(mcpKey);
    try {
      const result = await client.callTool({ name: "topic_writer", arguments: { topic: "otters", words: "seven" } });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments for topic_writer: words: /);
    } finally {
      await client.close();
    }
    expect((await t.app.persistence.threads.list({ agentId: "topic_writer", limit: 100, offset: 0 })).total).toBe(before);
  });
});
