import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { everythingEntry, startEverythingHttp, type EverythingHttp } from "../helpers/mcp-everything";
import { api, fixtureAgents, startTestApp, waitFor, waitForThread, type TestApp } from "../helpers/test-app";

// A thread calls tools of the official example server `@modelcontextprotocol/server-everything` (from npm), over stdio
// (a child process the app starts) and over Streamable HTTP (a server this test starts on 127.0.0.1).

const TOKEN = "mcp-canary-5d1e2f-secret";
let fake: FakeLlm;
let http: EverythingHttp;
let t: TestApp;
let agentsDir: string;

function write(rel: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(agentsDir, rel)), { recursive: true });
  fs.writeFileSync(path.join(agentsDir, rel), text);
}

beforeAll(async () => {
  fake = await startFakeLlm();
  http = await startEverythingHttp();
  agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-agents-"));
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  write(
    "mcp/everything.ts",
    `import { defineMcpServer } from "@studio/spec";
export default defineMcpServer({
  name: "everything",
  transport: "stdio",
  command: ${JSON.stringify(process.execPath)},
  args: [${JSON.stringify(everythingEntry)}, "stdio"],
  env: { EVERYTHING_TOKEN: "{{MCP_TOKEN}}" },
  tools: ["echo", "get-tiny-image", "get-env", "trigger-long-running-operation"],
});\n`,
  );
  write(
    "mcp/everything_http.ts",
    `import { defineMcpServer } from "@studio/spec";
export default defineMcpServer({ name: "everything_http", transport: "http", url: ${JSON.stringify(http.url)}, headers: { authorization: "Bearer {{MCP_TOKEN}}" }, timeoutMs: 1500 });\n`,
  );
  write(
    "mcp/gone.ts",
    `import { defineMcpServer } from "@studio/spec";
export default defineMcpServer({ name: "gone", transport: "http", url: "http://127.0.0.1:1/mcp" });\n`,
  );
  write(
    "prompts/mcp_user.ts",
    `import { definePrompt } from "@studio/spec";
export default definePrompt({
  name: "mcp_user",
  prompt: "You use MCP tools.",
  model: "primary",
  variables: [{ name: "MCP_TOKEN", type: "secret", required: true, description: "Token for the MCP servers" }],
  tools: ["everything.echo", "everything__get-tiny-image", "everything.get-env", "everything.trigger-long-running-operation", "everything_http.get-sum", "everything_http.trigger-long-running-operation", "gone.echo"],
});\n`,
  );
  write("agents/mcp_user.ts", `import { defineAgent } from "@studio/spec";\nexport default defineAgent({ name: "mcp_user", type: "ai_human", sideA: { prompt: "mcp_user" } });\n`);
  t = await startTestApp({ agentsDir, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await http?.stop();
  await fake?.close();
  if (agentsDir) fs.rmSync(agentsDir, { recursive: true, force: true });
});
beforeEach(() => fake.clearRequests());

/** Runs one turn in which the model calls `name` with `args`, and returns the thread's tool message. */
async function callTool(name: string, args: Record<string, unknown>) {
  fake.setScript([
    { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name, arguments: args }] } },
    { respond: { content: "done" } },
  ]);
  const created = await api(t.url, "POST", "/api/threads", { agent_id: "mcp_user", env: { MCP_TOKEN: TOKEN } });
  expect(created.status).toBe(201);
  const id = created.body.threadId;
  await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "go" });
  await waitForThread(t.url, id, ["idle", "terminated"], 30_000);
  const messages = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages;
  return { id, tool: messages.find((m: any) => m.role === "tool"), messages };
}

describe("tools of MCP servers", () => {
  it("are offered to the model as server__tool with the server's own schema and description", async () => {
    await callTool("everything__echo", { message: "hi" });
    const tools = fake.getRequests()[0]!.tools!.map((x: any) => x.function);
    const echo = tools.find((f: any) => f.name === "everything__echo");
    expect(echo.description).toMatch(/echo/i);
    expect(echo.parameters.properties.message.type).toBe("string");
    expect(tools.find((f: any) => f.name === "everything_http__get-sum").parameters.required).toEqual(["a", "b"]);
  });

  it("are called over stdio: the text result reaches the tool message and the model", async () => {
    const { tool } = await callTool("everything__echo", { message: "hello from the thread" });
    expect(tool).toMatchObject({ tool_status: "success", content: "Echo: hello from the thread" });
    const second = fake.getRequests()[1]!.body.messages as any[];
    expect(second.at(-1)).toMatchObject({ role: "tool", content: "Echo: hello from the thread" });
  });

  it("are called over Streamable HTTP", async () => {
    const { tool } = await callTool("everything_http__get-sum", { a: 2, b: 40 });
    expect(tool.tool_status).toBe("success");
    expect(tool.content).toMatch(/\b42\b/);
  });

  it("map an image result to an attachment of the tool message", async () => {
    const { tool, id } = await callTool("everything__get-tiny-image", {});
    expect(tool.tool_status).toBe("success");
    expect(tool.attachments).toHaveLength(1);
    expect(tool.attachments[0]).toMatchObject({ mimeType: "image/png" });
    expect(tool.content).toContain(`/attachments/${tool.attachments[0].name}`);
    const file = await fetch(`${t.url}/api/threads/${id}/fs${tool.attachments[0].path}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");
  });

  it("pass env values from secret variables to the server, and mask them in what is stored and sent", async () => {
    const { tool } = await callTool("everything__get-env", {});
    expect(tool.tool_status).toBe("success");
    expect(tool.content).toContain("EVERYTHING_TOKEN");
    expect(tool.content).toContain("••••");
    const stored = JSON.stringify([
      await t.app.prisma.message.findMany(),
      await t.app.prisma.threadEvent.findMany(),
      fake.getRequests(),
    ], (_k, v) => (typeof v === "bigint" ? String(v) : v));
    expect(stored).not.toContain(TOKEN);
  });

  it("fail with a clear tool error after the server's timeoutMs, and the loop goes on", async () => {
    const { tool, messages } = await callTool("everything_http__trigger-long-running-operation", { duration: 10, steps: 2 });
    expect(tool).toMatchObject({ tool_status: "error" });
    expect(tool.content).toBe("Tool everything_http__trigger-long-running-operation timed out after 1500 ms (the timeoutMs of mcp/everything_http.ts).");
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "done" });
  });

  it("of a server that is down answer with a tool error naming the server, never a crash", async () => {
    const { tool, messages } = await callTool("gone__echo", { message: "x" });
    expect(tool.tool_status).toBe("error");
    expect(tool.content).toMatch(/^Tool gone__echo is not available: MCP server gone is unavailable: .+ The next connection attempt is in \d+ s\.$/);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "done" });
  });

  it("are cancelled when the thread is stopped", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "everything__trigger-long-running-operation", arguments: { duration: 20, steps: 4 } }] } },
      { respond: { content: "done" } },
    ]);
    const created = await api(t.url, "POST", "/api/threads", { agent_id: "mcp_user", env: { MCP_TOKEN: TOKEN } });
    const id = created.body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "go" });
    await waitFor(async () => (await t.app.prisma.threadEvent.findMany({ where: { threadId: id, type: "tool.started" } })).length > 0, 15_000);
    const started = Date.now();
    await api(t.url, "POST", `/api/threads/${id}/stop`);
    await waitForThread(t.url, id, ["idle", "terminated", "stopped"], 15_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    const tool = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages.find((m: any) => m.role === "tool");
    expect(tool).toMatchObject({ tool_status: "error", content: "Stopped by the user while this tool was running." });
  });
});

describe("a server that goes away", () => {
  it("is reconnected once it is back (with backoff in between), and GET /api/mcp-servers shows each server's state", async () => {
    await http.stop();
    const down = await callTool("everything_http__get-sum", { a: 1, b: 2 });
    expect(down.tool.tool_status).toBe("error");
    expect(down.tool.content).toMatch(/^Tool everything_http__get-sum (failed|is not available): /);
    expect(down.messages.at(-1)).toMatchObject({ role: "assistant", content: "done" });
    http = await startEverythingHttp(http.port);
    const back = await waitFor(async () => {
      const r = await callTool("everything_http__get-sum", { a: 1, b: 2 });
      return r.tool.tool_status === "success" ? r : undefined;
    }, 40_000);
    expect(back.tool.content).toMatch(/\b3\b/);

    const { body } = await api(t.url, "GET", "/api/mcp-servers");
    expect(JSON.stringify(body)).not.toContain(TOKEN);
    const byName = Object.fromEntries(body.servers.map((x: any) => [x.name, x]));
    expect(byName.everything_http).toMatchObject({ transport: "http", state: "connected", headerNames: ["authorization"], file: "mcp/everything_http.ts" });
    expect(byName.everything_http.usedBy).toContainEqual({ prompt: "mcp_user", tool: "get-sum" });
    expect(byName.everything_http.tools.map((x: any) => x.name)).toContain("get-sum");
    expect(byName.everything).toMatchObject({ transport: "stdio", state: "connected", envNames: ["EVERYTHING_TOKEN"], allowedTools: ["echo", "get-tiny-image", "get-env", "trigger-long-running-operation"] });
    expect(byName.gone).toMatchObject({ state: "down" });
    expect(byName.gone.error).toMatch(/fetch failed/);
    const diagnostics = (await api(t.url, "GET", "/api/diagnostics")).body.diagnostics as any[];
    expect(diagnostics.filter((d) => d.kind === "mcp").map((d) => `${d.severity} ${d.file} ${d.field}`)).toEqual(["warning mcp/gone.ts url"]);
    expect(diagnostics.find((d) => d.file === "mcp/gone.ts").message).toMatch(/^MCP server "gone" is unreachable: fetch failed\./);
  }, 90_000);
});

describe("MCP server definitions", () => {
  it("are checked by the registry: the file, the field and the fix", async () => {
    write("mcp/bad.ts", `import { defineMcpServer } from "@studio/spec";\nexport default defineMcpServer({ name: "bad", transport: "http" } as never);\n`);
    write("prompts/mcp_typo.ts", `import { definePrompt } from "@studio/spec";\nexport default definePrompt({ name: "mcp_typo", prompt: "x", model: "primary", tools: ["everything.nope", "nowhere.echo"] });\n`);
    try {
      const list = await waitFor(async () => {
        const d = (await api(t.url, "GET", "/api/diagnostics")).body.diagnostics as any[];
        return d.some((x) => x.file === "mcp/bad.ts") && d.some((x) => x.file === "prompts/mcp_typo.ts") ? d : undefined;
      });
      expect(list.find((x) => x.file === "mcp/bad.ts")).toMatchObject({ severity: "error", kind: "mcp", field: "url" });
      const typo = list.filter((x) => x.file === "prompts/mcp_typo.ts");
      expect(typo.find((x) => x.field === "tools.0").message).toMatch(/MCP server "everything" \(mcp\/everything\.ts\) allows only/);
      expect(typo.find((x) => x.field === "tools.1").message).toMatch(/there is no MCP server "nowhere"/);
    } finally {
      fs.rmSync(path.join(agentsDir, "mcp/bad.ts"));
      fs.rmSync(path.join(agentsDir, "prompts/mcp_typo.ts"));
    }
  });
});
