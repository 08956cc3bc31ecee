import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { readSse } from "../helpers/sse";
import { api, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("the shipped example graph", () => {
  it("chats with writing_assistant over REST with tokens streaming over SSE, its tools writing real files", async () => {
    fake.setScript([
      { when: { last_role: "user" }, times: 1, respond: { tool_calls: [{ name: "word_count", arguments: { text: "one two three" } }] } },
      { when: { last_role: "tool", any_contains: "word" }, times: 1, respond: { tool_calls: [{ name: "save_note", arguments: { title: "Count result", content: "It has three words." } }] } },
      { respond: { content: "Your text has 3 words, and I saved a note about it." } },
    ]);
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "writing_assistant", tags: ["demo"] });
    expect(body.thread.status).toBe("idle");
    const id = body.threadId;
    const stream = readSse(`${t.url}/api/threads/${id}/stream`, { until: (ev) => ev.some((e) => e.data.type === "thread.stopped") });
    await new Promise((r) => setTimeout(r, 50));
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "How many words in 'one two three'? Save a note." });
    const events = await stream;
    const text = events.filter((e) => e.data.type === "token.delta").map((e) => e.data.content ?? "").join("");
    expect(text).toBe("Your text has 3 words, and I saved a note about it.");
    await waitForThread(t.url, id);

    const first = fake.getRequests()[0]!;
    expect(first.model).toBe("gpt-4.1-mini");
    const system = String(first.messages[0]!.content);
    expect(system).toContain("You are a writing assistant.");
    expect(system).not.toContain("undefined");
    const offered = (first.tools ?? []).map((x: any) => x.function.name).sort();
    expect(offered).toEqual(["current_time", "draft_and_review", "polish_text", "save_note", "word_count"]);

    const messages = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages;
    const tools = messages.filter((m: any) => m.role === "tool");
    expect(tools.map((m: any) => m.tool_status)).toEqual(["success", "success"]);
    expect(tools[0].content).toMatch(/3/);
    const listing = (await api(t.url, "GET", `/api/threads/${id}/fs/notes`)).body;
    expect(listing.entries.map((e: any) => e.path)).toContain("/notes/count-result.md");
    const file = await fetch(`${t.url}/api/threads/${id}/fs/notes/count-result.md`);
    expect(file.headers.get("content-type")).toMatch(/markdown|text/);
    expect(await file.text()).toContain("It has three words.");
  });
});
