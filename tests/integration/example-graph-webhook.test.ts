import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { appRouter } from "@/server/api/root";
import { createCallerFactory } from "@/server/api/trpc";
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

describe("the example graph's webhook controller and notes endpoints", () => {
  it("starts a writing_assistant thread from a posted text; its saved note is served by the thread's notes endpoints", async () => {
    fake.setScript([
      { when: { last_role: "user", last_contains: "teh quick fox" }, times: 1, respond: { tool_calls: [{ name: "save_note", arguments: { title: "Fox story", content: "The quick fox." } }] } },
      { respond: { content: "Polished and saved as a note." } },
    ]);
    const res = await api(t.url, "POST", "/api/controllers/webhooks/draft-request", { text: "teh quick fox" });
    expect(res.status).toBe(202);
    const id = res.body.threadId;
    expect(res.body).toEqual({ threadId: id, messages: `/api/threads/${id}/messages`, stream: `/api/threads/${id}/stream`, notes: `/api/threads/${id}/notes` });
    const thread = await waitForThread(t.url, id);
    expect(thread).toMatchObject({ agent_id: "writing_assistant", tags: ["source:webhook"] });
    const first = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages[0];
    expect(first.content).toBe("Polish this text, then save the result as a note.\n\n---\nteh quick fox");

    const notes = (await api(t.url, "GET", `/api/threads/${id}/notes`)).body;
    expect(notes.notes.map((n: any) => [n.slug, n.path])).toEqual([["fox-story", "/notes/fox-story.md"]]);
    const note = await fetch(`${t.url}/api/threads/${id}/notes/fox-story`);
    expect(note.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(await note.text()).toContain("The quick fox.");
    expect((await api(t.url, "GET", `/api/threads/${id}/notes/nope`)).status).toBe(404);
  });

  it("refuses a body without text", async () => {
    expect(await api(t.url, "POST", "/api/controllers/webhooks/draft-request", { text: " " })).toMatchObject({ status: 400, body: { error: { code: "BAD_REQUEST" } } });
  });

  it("lists the example's endpoint and controller, over REST and in the home page's registry overview", async () => {
    const { body } = await api(t.url, "GET", "/api/endpoints");
    expect(body.endpoints.map((e: any) => `${e.method} ${e.route}`)).toEqual(["GET /api/threads/:threadId/notes", "GET /api/threads/:threadId/notes/:slug"]);
    expect(body.controllers.map((e: any) => `${e.method} ${e.route}`)).toEqual(["POST /api/controllers/webhooks/draft-request"]);
    const overview = await createCallerFactory(appRouter)({ app: t.app, caller: { userId: null, username: null, role: "admin", via: "local" } }).registry.overview();
    expect(overview.routes).toEqual(body);
    expect(overview.diagnostics).toEqual([]);
  });
});
