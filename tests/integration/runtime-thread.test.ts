import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { ServerProcess } from "../helpers/server-process";
import { readSse } from "../helpers/sse";
import { api, fixtureAgents, waitFor, waitForThread } from "../helpers/test-app";
import { testDatabaseKind } from "@/server/db/test-database";

/**
 * RUNTIME_THREAD=1 on SQLite, as a real process: the activations run on a worker thread of the app process, the
 * HTTP API on its main thread. What a user sees must not change: events live on SSE (token deltas included, which
 * only the bridge carries), a stop aborting the step in flight on the other thread, a queued message delivered.
 */
const sqlite = testDatabaseKind() === "sqlite";
let fake: FakeLlm;
let server: ServerProcess;

beforeAll(async () => {
  if (!sqlite) return;
  fake = await startFakeLlm();
  server = new ServerProcess({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", RUNTIME_THREAD: "1" } });
  addCrashingAgent(server.agentsDir);
  addUnreachableMcpServer(server.agentsDir);
  await server.start();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

const messages = async (id: string) => (await api(server.url, "GET", `/api/threads/${id}/messages`)).body.messages as any[];
const newThread = async () => (await api(server.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;

describe.runIf(sqlite)("RUNTIME_THREAD=1: activations on a runtime thread of the app process", () => {
  it("starts the runtime thread, and the API process itself claims no work", async () => {
    await waitFor(async () => server.output.includes("runtime thread started"));
    const health = (await api(server.url, "GET", "/api/health")).body;
    expect(JSON.stringify(health)).not.toContain('"status":"error"');
  });

  it("a thread runs to idle; its events reach SSE live from the other thread, once and in order", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "echo", arguments: { text: "hi" } }] } },
      { when: { last_role: "tool" }, respond: { content: "The echo said hi back to you" } },
    ]);
    const id = await newThread();
    const streamed = readSse(`${server.url}/api/threads/${id}/stream`, {
      until: (ev) => ev.some((e) => e.data.type === "thread.stopped" && e.data.reason === "response"),
    });
    await new Promise((r) => setTimeout(r, 100));
    expect((await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "say hi" })).status).toBe(202);
    const events = await streamed;
    // Token deltas are never stored: they can only have come over the bridge, while the step ran.
    const text = events.filter((e) => e.data.type === "token.delta").map((e) => e.data.content ?? "").join("");
    expect(text).toBe("The echo said hi back to you");
    const persisted = events.filter((e) => e.id !== null).map((e) => e.id!);
    expect(persisted).toEqual([...persisted].sort((a, b) => a - b));
    expect(new Set(persisted).size).toBe(persisted.length);
    const types = events.map((e) => e.data.type);
    expect(types).toEqual(expect.arrayContaining(["step.started", "tool.started", "tool.completed", "step.completed", "thread.stopped"]));
    expect((await waitForThread(server.url, id)).stop_reason).toBe("response");
  }, 30_000);

  it("a stop through the API aborts the step in flight on the runtime thread at once", async () => {
    fake.clearRequests();
    fake.setScript([{ when: { last_contains: "slow answer" }, times: 1, delay_ms: 10_000, respond: { content: "too late" } }, { respond: { content: "unused" } }]);
    const id = await newThread();
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "slow answer please" });
    await waitFor(async () => fake.getRequests().length >= 1);
    const started = performance.now();
    const stopped = await api(server.url, "POST", `/api/threads/${id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.thread).toMatchObject({ status: "idle", stop_reason: "user_stop", stop_requested: false });
    // Told over the bridge: not after the model's 10 s answer, nor at the runtime thread's stop poll (every 1 s).
    expect(performance.now() - started).toBeLessThan(400);
    expect((await messages(id)).map((m) => m.content)).toEqual(["slow answer please"]);
    const logs = (await api(server.url, "GET", `/api/threads/${id}/logs`)).body.logs as any[];
    expect(logs.map((l) => l.status)).toEqual(["interrupted"]);
  }, 30_000);

  it("a message posted while a step is in flight is delivered before the next step, and answered", async () => {
    fake.setScript([
      { when: { last_contains: "first" }, times: 1, delay_ms: 800, respond: { content: "answer one" } },
      { respond: { content: "answer two" } },
    ]);
    const id = await newThread();
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "first" });
    await waitFor(async () => fake.getRequests().some((r) => JSON.stringify(r).includes("first")));
    await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "second" });
    await waitFor(async () => (await messages(id)).length >= 4, 15_000);
    expect((await waitForThread(server.url, id)).status).toBe("idle");
    expect((await messages(id)).map((m) => `${m.role}:${m.content}`)).toEqual(["user:first", "assistant:answer one", "user:second", "assistant:answer two"]);
  }, 30_000);

  it("work queued through the API is claimed on a wake, not at the runtime thread's next poll", async () => {
    fake.setScript([{ respond: { content: "quick" } }]);
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      const id = await newThread();
      await api(server.url, "POST", `/api/threads/${id}/messages`, { content: "hello" });
      await waitForThread(server.url, id);
    }
    // The poll is 1 s (0.5 s after each on average); woken, five turns take a fraction of that.
    expect(performance.now() - started).toBeLessThan(2000);
  }, 30_000);

  it("GET /api/mcp-servers and the diagnostics show the state of the MCP servers as the runtime thread uses them", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "gone__echo", arguments: { message: "x" } }] } },
      { respond: { content: "done" } },
    ]);
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "mcp_gone" });
    await api(server.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "use the server" });
    await waitForThread(server.url, body.threadId);
    // The main thread's own MCP pool never connected: only the runtime thread's report says the server is down.
    const gone = await waitFor(async () => {
      const servers = (await api(server.url, "GET", "/api/mcp-servers")).body.servers as any[];
      const s = servers.find((x) => x.name === "gone");
      return s?.state === "down" ? s : undefined;
    }, 10_000);
    expect(gone.error).toMatch(/fetch failed/);
    const diagnostics = (await api(server.url, "GET", "/api/diagnostics")).body.diagnostics as any[];
    expect(diagnostics.filter((d) => d.kind === "mcp").map((d) => `${d.severity} ${d.file} ${d.field}`)).toEqual(["warning mcp/gone.ts url"]);
  }, 30_000);

  it("a runtime thread that dies (an error thrown outside any step) is logged and started again; the thread completes", async () => {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "studio-crash-")), "thrown");
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "stray_throw", arguments: { marker } }] } },
      { when: { last_role: "tool" }, respond: { content: "done after the restart" } },
    ]);
    const { body } = await api(server.url, "POST", "/api/threads", { agent_id: "crasher" });
    await api(server.url, "POST", `/api/threads/${body.threadId}/messages`, { content: "crash the runtime" });
    await waitFor(async () => server.output.includes("the runtime thread ended; starting it again"), 15_000);
    // The API stays up while the runtime thread is down.
    expect((await api(server.url, "GET", `/api/threads/${body.threadId}`)).status).toBe(200);
    const thread = await waitForThread(server.url, body.threadId, ["idle"], 30_000);
    expect(thread.stop_reason).toBe("response");
    const msgs = await messages(body.threadId);
    expect(msgs.map((m) => m.content)).toEqual(["crash the runtime", null, "survived", "done after the restart"]);
  }, 60_000);
});

/** An agent whose tool throws outside any promise the runtime awaits (once: a marker file remembers it). */
function addCrashingAgent(agentsDir: string): void {
  fs.writeFileSync(
    path.join(agentsDir, "tools/stray_throw.ts"),
    `import fs from "node:fs";
import { defineTool } from "@studio/spec";
import { z } from "zod";

export default defineTool({
  description: "Throws an uncaught error the first time",
  args: z.object({ marker: z.string() }),
  execute: async (_state, args) => {
    if (fs.existsSync(args.marker)) return "survived";
    fs.writeFileSync(args.marker, "1");
    setTimeout(() => { throw new Error("a stray error from a tool"); }, 10);
    await new Promise((r) => setTimeout(r, 5000));
    return "not reached";
  },
});
`,
  );
  fs.writeFileSync(
    path.join(agentsDir, "prompts/crasher.ts"),
    `import { definePrompt } from "@studio/spec";

export default definePrompt({ name: "crasher", prompt: "You crash.", model: "primary", includeChat: true, tools: ["stray_throw"] });
`,
  );
  fs.writeFileSync(
    path.join(agentsDir, "agents/crasher.ts"),
    `import { defineAgent } from "@studio/spec";

export default defineAgent({ name: "crasher", type: "ai_human", sideA: { prompt: "crasher" } });
`,
  );
}

/** An MCP server nobody serves (port 1), and an agent whose prompt offers one of its tools. */
function addUnreachableMcpServer(agentsDir: string): void {
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(agentsDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(agentsDir, rel), text);
  };
  write("mcp/gone.ts", `import { defineMcpServer } from "@studio/spec";\nexport default defineMcpServer({ name: "gone", transport: "http", url: "http://127.0.0.1:1/mcp" });\n`);
  write("prompts/mcp_gone.ts", `import { definePrompt } from "@studio/spec";\nexport default definePrompt({ name: "mcp_gone", prompt: "You use MCP tools.", model: "primary", tools: ["gone.echo"] });\n`);
  write("agents/mcp_gone.ts", `import { defineAgent } from "@studio/spec";\nexport default defineAgent({ name: "mcp_gone", type: "ai_human", sideA: { prompt: "mcp_gone" } });\n`);
}
