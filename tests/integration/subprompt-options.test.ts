import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", LLM_MAX_RETRIES: "0" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.clearRequests());

async function run(agent: string, message: string, before?: (id: string) => Promise<void>) {
  const { body } = await api(t.url, "POST", "/api/threads", { agent_id: agent });
  const id = body.threadId as string;
  await before?.(id);
  await api(t.url, "POST", `/api/threads/${id}/messages`, { content: message });
  const thread = await waitForThread(t.url, id);
  const messages = (await api(t.url, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];
  return { id, thread, messages, tool: messages.find((m) => m.role === "tool") };
}

/** The caller asks tooly once, then answers; tooly answers with `reply`. */
function script(caller: string, reply: { content?: string; tool_calls?: { name: string; arguments: Record<string, unknown> }[] } | null) {
  fake.setScript([
    { when: { system_contains: caller, last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "tooly", arguments: { task: "do the job" } }] } },
    reply ? { when: { system_contains: "You are tooly" }, respond: reply } : { when: { system_contains: "You are tooly" }, status: 400, error: "tooly's model refused" },
    { when: { system_contains: caller }, respond: { content: "done" } },
  ]);
}

const mixed = { content: "tooly text", tool_calls: [{ name: "echo", arguments: { text: "ok" } }, { name: "explode", arguments: {} }] };

describe("subprompt includeTextResponse and includeErrors", () => {
  it("includeTextResponse false and includeErrors false: only the successful tool call is reported", async () => {
    script("quiet caller", mixed);
    const { tool } = await run("sub_quiet", "go");
    expect(tool.tool_status).toBe("success");
    expect(tool.content).toBe('Tool call echo({"text":"ok"}) → echo: ok');
    const sub = fake.getRequests().find((r) => r.model === "backup-model")!;
    expect(sub.messages).toEqual([
      { role: "system", content: "You are tooly." },
      { role: "user", content: "do the job" },
    ]);
  });

  it("includeTextResponse true and includeErrors true: the text, the result and the failed call's error", async () => {
    script("loud caller", mixed);
    const { tool } = await run("sub_loud", "go");
    expect(tool.tool_status).toBe("success");
    expect(tool.content).toBe('tooly text\n\nTool call echo({"text":"ok"}) → echo: ok\n\nTool call explode({}) → error: Tool explode failed: kaboom');
  });

  it("includeErrors true: a subprompt whose only call failed is a tool error with the error text", async () => {
    script("loud caller", { tool_calls: [{ name: "explode", arguments: {} }] });
    const { tool } = await run("sub_loud", "go");
    expect(tool.tool_status).toBe("error");
    expect(tool.content).toContain("Tool call explode({}) → error: Tool explode failed: kaboom");
  });

  it("includeErrors false: the failure is reported without its details; true: with them", async () => {
    script("quiet caller", null);
    const quiet = await run("sub_quiet", "go");
    expect(quiet.tool.tool_status).toBe("error");
    expect(quiet.tool.content).toBe("Subprompt tooly failed.");
    script("loud caller", null);
    const loud = await run("sub_loud", "go");
    expect(loud.tool.tool_status).toBe("error");
    expect(loud.tool.content).toMatch(/^Subprompt tooly failed: .*tooly's model refused/);
  });
});

describe("subprompt initAttachmentsProperty", () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  const upload = (id: string, path: string, body: Buffer | string, type: string) =>
    fetch(`${t.url}/api/threads/${id}/fs${path}`, { method: "POST", headers: { "content-type": type }, body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]) });

  it("sends the files to the subprompt's model: images as image parts, text files with their content", async () => {
    fake.setScript([
      {
        when: { system_contains: "inspector", last_role: "user" },
        times: 1,
        respond: { tool_calls: [{ name: "describe", arguments: { question: "What is in these?", files: ["/attachments/pic.png", "/attachments/notes.txt", "/attachments/data.bin"] } }] },
      },
      { when: { system_contains: "You describe files" }, respond: { content: "A picture and some notes." } },
      { when: { system_contains: "inspector" }, respond: { content: "Described." } },
    ]);
    const { tool } = await run("inspector", "describe my files", async (id) => {
      expect((await upload(id, "/attachments/pic.png", png, "image/png")).status).toBe(201);
      expect((await upload(id, "/attachments/notes.txt", "remember the milk", "text/plain")).status).toBe(201);
      expect((await upload(id, "/attachments/data.bin", Buffer.from([1, 2, 3]), "application/octet-stream")).status).toBe(201);
    });
    expect(tool.content).toBe("A picture and some notes.");
    const sub = fake.getRequests().find((r) => r.model === "backup-model")!;
    expect(sub.messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is in these?" },
        { type: "text", text: "Attachment /attachments/pic.png:" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
        { type: "text", text: "Attachment /attachments/notes.txt (text/plain):\nremember the milk" },
        { type: "text", text: "[attachment: /attachments/data.bin (application/octet-stream, 3 bytes)]" },
      ],
    });
  });

  it("a missing or escaping path is a tool error the model sees, and the subprompt's model is not called", async () => {
    fake.setScript([
      { when: { system_contains: "inspector", last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "describe", arguments: { question: "?", files: ["/attachments/none.png"] } }] } },
      { when: { system_contains: "inspector", last_role: "tool" }, times: 1, respond: { tool_calls: [{ name: "describe", arguments: { question: "?", files: ["../../etc/passwd"] } }] } },
      { when: { system_contains: "inspector" }, respond: { content: "I give up." } },
    ]);
    const { messages } = await run("inspector", "describe");
    const tools = messages.filter((m) => m.role === "tool");
    expect(tools.map((m) => m.tool_status)).toEqual(["error", "error"]);
    expect(tools[0].content).toContain("/attachments/none.png does not exist");
    expect(tools[1].content).toContain('".." is not allowed');
    expect(fake.getRequests().some((r) => r.model === "backup-model")).toBe(false);
  });
});
