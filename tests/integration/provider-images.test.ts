import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, fixtureAgents, startTestApp, waitForThread, type TestApp } from "../helpers/test-app";

/** Images a model returns (Gemini inline image parts, Responses image_generation_call items) become attachments of the answer. */
let fake: FakeLlm;
let t: TestApp;
let agentsDir: string;

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

beforeAll(async () => {
  fake = await startFakeLlm({ script: [{ respond: { content: "Here is your picture.", images: [{ data: PNG, media_type: "image/png" }] } }] });
  agentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "provider-images-"));
  fs.cpSync(fixtureAgents, agentsDir, { recursive: true });
  for (const f of ["google-provider", "openai-responses-provider"]) fs.cpSync(path.join(import.meta.dirname, "../fixtures", f), agentsDir, { recursive: true });
  t = await startTestApp({ agentsSource: agentsDir, env: { OPENAI_BASE_URL: fake.url, GEMINI_BASE_URL: fake.url.replace(/\/v1$/, "") } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  fs.rmSync(agentsDir, { recursive: true, force: true });
});

describe("images out", () => {
  it.each(["gemini_chat", "responses_chat"])("%s: the image is saved to the thread's files and attached to the answer", async (agent) => {
    const id = (await api(t.url, "POST", "/api/threads", { agent_id: agent })).body.threadId;
    await api(t.url, "POST", `/api/threads/${id}/messages`, { content: "draw a dot" });
    await waitForThread(t.url, id);
    const answer = (await api(t.url, "GET", `/api/threads/${id}/messages`)).body.messages.at(-1);
    expect(answer.content).toBe("Here is your picture.");
    expect(answer.attachments).toHaveLength(1);
    const [image] = answer.attachments;
    expect(image).toMatchObject({ path: expect.stringMatching(/^\/attachments\/generated-.+-1\.png$/), mimeType: "image/png", size: Buffer.from(PNG, "base64").length });
    const res = await fetch(`${t.url}/api/threads/${id}/fs${image.path}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(PNG, "base64"))).toBe(true);
    const logs = (await api(t.url, "GET", `/api/threads/${id}/logs`)).body.logs;
    expect(logs.at(-1).response.images).toEqual([{ media_type: "image/png", bytes: expect.any(Number) }]);
  });
});
