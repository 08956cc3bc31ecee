import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { rawPost } from "../helpers/raw-post";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "test-key" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A POST of `body` through plain `http`: with Content-Length, or chunked; answers the status. */
const post = async (url: string, body: string, chunked: boolean) => (await rawPost(url, body, { chunked, splitAt: 7 })).status;

describe("the REST front's request bodies on the routes that take its lighter request", () => {
  it("stores a message posted small, large (streamed) and chunked, byte for byte, with a leading byte-order mark dropped", async () => {
    fake.setScript([{ respond: { content: "ok" } }]);
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId as string;
    const sent = ["héllo ✓", "x".repeat(200_000) + "é", "chunked ✓"];
    expect(await post(`${t.url}/api/threads/${id}/messages`, "\uFEFF" + JSON.stringify({ content: sent[0] }), false)).toBe(202);
    await waitForThread(t.url, id);
    expect(await post(`${t.url}/api/threads/${id}/messages`, JSON.stringify({ content: sent[1] }), false)).toBe(202);
    await waitForThread(t.url, id);
    expect(await post(`${t.url}/api/threads/${id}/messages`, JSON.stringify({ content: sent[2] }), true)).toBe(202);
    await waitForThread(t.url, id);
    const messages = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages as { role: string; content: string }[];
    expect(messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(sent);
    expect(await post(`${t.url}/api/threads/${id}/messages`, "{oops", false)).toBe(400);
  });
});
