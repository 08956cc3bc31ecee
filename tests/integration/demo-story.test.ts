import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoScript } from "../../scripts/demo/script";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm({ script: demoScript });
  t = await startTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "scripted-demo" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("npm run demo: the example graph plays its whole story against the scripted model", () => {
  it("the assistant delegates to draft_and_review, the reviewer asks for a revision, approves, and the text comes back", async () => {
    const { body } = await api(t.url, "POST", "/api/threads", { agent_id: "writing_assistant" });
    const id = body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "Write a launch announcement" });
    const last = await waitFor(async () => {
      const msgs = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages;
      const m = msgs.at(-1);
      return m?.role === "assistant" && m.content?.includes("approved by the reviewer") ? msgs : undefined;
    }, 30_000);
    const [entry] = (await api(t.url, "GET", `/api/threads/${id}/subagents`)).body.subagents;
    expect(entry).toMatchObject({ name: "draft_and_review", threadName: "Launch announcement", status: "terminated", blocking: true });
    const tool = last.find((m: any) => m.role === "tool" && m.name === "draft_and_review");
    expect(tool.content).toMatch(/^Today we launch Studio\./);
    expect(tool.content).toContain(`Reference: ${entry.reference}`);
    const child = (await api(t.url, "GET", `/api/threads/${entry.reference}/messages`)).body.messages;
    expect(child.map((m: any) => `${m.role}/${m.side ?? "-"}`)).toEqual(["user/-", "assistant/a", "user/b", "tool/b", "user/b", "assistant/a", "user/b", "tool/b"]);
    const statuses = (await t.app.persistence.events.after(id, 0, 10_000)).map((e) => e.event as any).filter((e) => e.type === "subagent.updated").map((e) => e.status);
    expect(statuses).toEqual(["running", "Round 1: the opening needs the news first", "terminated"]);
  });
});
