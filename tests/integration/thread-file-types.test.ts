import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";

// The fs API serves a thread's file inline only when its type is exactly one allowed MIME type.
let t: TestApp;
let thread: string;
beforeAll(async () => {
  t = await startTestApp({ agentsSource: fixtureAgents });
  thread = (await api(t.url, "POST", "/api/threads", { agent_id: "chat" })).body.threadId;
});
afterAll(async () => t?.close());

const get = (path: string) => fetch(`${t.url}/api/threads/${thread}/fs${path}`);

describe("thread files are typed by their parsed MIME essence", () => {
  it("does not store or serve an upload's type list such as text/plain,text/html", async () => {
    const up = await fetch(`${t.url}/api/threads/${thread}/fs/attachments/page.html`, { method: "POST", headers: { "content-type": "text/plain,text/html" }, body: "<script>alert(1)</script>" });
    expect(up.status).toBe(201);
    expect(((await up.json()) as { mime_type: string }).mime_type).toBe("text/html");
    const res = await get("/attachments/page.html");
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment/);
  });

  it("serves a stored type that is not exactly one MIME type as a download of opaque bytes", async () => {
    await t.app.persistence.files.write(thread, "/attachments/tool-output.txt", new TextEncoder().encode("<b>hi</b>"), { mimeType: "text/plain,text/html" });
    const res = await get("/attachments/tool-output.txt");
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("still shows plain text and images inline", async () => {
    await fetch(`${t.url}/api/threads/${thread}/fs/attachments/notes.txt`, { method: "POST", headers: { "content-type": "text/plain; charset=utf-8" }, body: "hello" });
    const res = await get("/attachments/notes.txt");
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.headers.get("content-disposition")).toBeNull();
  });
});
