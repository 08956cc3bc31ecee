import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { client, newUser, signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;
let admin: As;
let alice: As & { id: string };
let bob: As & { id: string };
let thread: string;

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setScript([{ respond: { content: "hello" } }]);
  t = await startTestApp({
    agentsSource: fixtureAgents,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-123" },
  });
  admin = await signIn(t.url, "admin", "pw-admin-123");
  alice = await newUser(t.url, admin, "alice");
  bob = await newUser(t.url, admin, "bob");
  const created = await alice("POST", "/api/threads", {
    agent_id: "surface",
    env: { ENDPOINT_SECRET: "s3cr3t-value-42" },
    env_types: { ENDPOINT_SECRET: "secret" },
  });
  expect(created.status).toBe(201);
  thread = created.body.threadId;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const at = (p: string) => `/api/threads/${thread}${p}`;

describe("thread endpoints (agents/api/**)", () => {
  it("maps files to routes: methods by suffix, index files, [params], and the three kinds of return value", async () => {
    expect(await alice("GET", at("/report"))).toMatchObject({ status: 200, body: { threadId: thread, agentId: "surface", messages: 0 } });

    const put = await alice("PUT", at("/notes/n1"), "first note", { "content-type": "text/plain" });
    expect(put).toMatchObject({ status: 200, body: { path: "/notes/n1.txt", size: 10 } });
    const got = await alice("GET", at("/notes/n1"));
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(got.body).toBe("first note");
    expect(await alice("GET", at("/notes/missing"))).toMatchObject({ status: 404, body: { error: { message: "no note missing" } } });

    const approve = await alice("POST", at("/items/it-7/approve?by=alice"), { ok: 1 });
    expect(approve).toMatchObject({ status: 200, body: { itemId: "it-7", approved: true, body: { ok: 1 }, query: "alice" } });
    const del = await alice("DELETE", at("/items/it-7"));
    expect([del.status, del.body]).toEqual([204, null]);
    const patch = await alice("PATCH", at("/items/it-7"));
    expect([patch.status, patch.body, patch.headers.get("x-item")]).toEqual([202, "patched it-7", "it-7"]);
  });

  it("answers 405 for a method no file defines, and 404 for a path no file (or built-in route) answers", async () => {
    expect(await alice("POST", at("/report"))).toMatchObject({ status: 405, body: { error: { code: "METHOD_NOT_ALLOWED" } } });
    expect(await alice("GET", at("/items/it-7/approve"))).toMatchObject({ status: 405 });
    expect(await alice("GET", at("/nothing/here"))).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    // The built-in routes are untouched: still a 405 for a wrong method.
    expect(await alice("GET", at("/stop"))).toMatchObject({ status: 405 });
    expect((await alice("GET", at("/messages"))).status).toBe(200);
  });

  it("has the built-in routes' auth and owner isolation: 401 without credentials, 404 for another user's thread", async () => {
    expect((await client(t.url, "")("GET", at("/report"))).status).toBe(401);
    expect(await bob("GET", at("/report"))).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect((await bob("PUT", at("/notes/evil"), "x", { "content-type": "text/plain" })).status).toBe(404);
    expect((await admin("GET", at("/report"))).status).toBe(200);
    expect((await alice("GET", "/api/threads/no-such-thread/report")).status).toBe(404);
  });

  it("turns a throwing endpoint into a 500 with the error shape, the message redacted", async () => {
    const res = await alice("GET", at("/boom"));
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("ENDPOINT_ERROR");
    expect(res.body.error.message).toMatch(/^api\/boom\.ts failed: lookup failed with key /);
    expect(JSON.stringify(res.body)).not.toContain("s3cr3t-value-42");
  });

  it("lists the mounted endpoints and controllers (method, route, file) in GET /api/endpoints", async () => {
    const { body } = await alice("GET", "/api/endpoints");
    expect(body.endpoints).toContainEqual({ kind: "endpoint", method: "POST", route: "/api/threads/:threadId/items/:itemId/approve", file: "api/items/[itemId]/approve.post.ts" });
    expect(body.endpoints).toContainEqual({ kind: "endpoint", method: "GET", route: "/api/threads/:threadId/report", file: "api/report.ts" });
    expect(body.controllers).toContainEqual({ kind: "controller", method: "POST", route: "/api/controllers/start", file: "controllers/start.post.ts" });
    expect((await client(t.url, "")("GET", "/api/endpoints")).status).toBe(401);
  });

  it("reloads: a new file is mounted, a colliding one is a diagnostic and is not mounted, a removed one is gone", async () => {
    const dir = path.join(t.agentsDir, "api");
    const write = (rel: string, code: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), `import { defineThreadEndpoint } from "@studio/spec";\nexport default defineThreadEndpoint(${code});\n`);
    };
    write("fresh.ts", `() => "fresh"`);
    await waitFor(async () => (await alice("GET", at("/fresh"))).body === "fresh");

    write("messages.ts", `() => "shadow"`); // a built-in route
    write("dup.get.ts", `() => "one"`); // dup.ts and dup.get.ts answer the same route
    write("dup.ts", `() => "two"`);
    write("bad.trace.ts", `() => "x"`); // not a method
    const diagnostics = await waitFor(async () => {
      const list = (await admin("GET", "/api/diagnostics")).body.diagnostics as any[];
      const ours = list.filter((d) => ["api/messages.ts", "api/dup.ts", "api/dup.get.ts", "api/bad.trace.ts"].includes(d.file));
      return ours.length === 4 ? ours : undefined;
    });
    const byFile = Object.fromEntries(diagnostics.map((d: any) => [d.file, d]));
    expect(byFile["api/messages.ts"]).toMatchObject({ severity: "error", kind: "api" });
    expect(byFile["api/messages.ts"].message).toContain("answers GET /api/threads/:threadId/messages, which is a built-in route");
    expect(byFile["api/messages.ts"].fix).toMatch(/Rename the file/);
    expect(byFile["api/dup.ts"].message).toBe("api/dup.ts and api/dup.get.ts both answer GET /api/threads/:threadId/dup, so neither is mounted.");
    expect(byFile["api/bad.trace.ts"].message).toMatch(/"trace" in bad\.trace\.ts is not an HTTP method/);
    expect(((await alice("GET", at("/messages"))).body as any).messages).toBeDefined(); // still the built-in route
    expect((await alice("GET", at("/dup"))).status).toBe(404);
    const listed = (await alice("GET", "/api/endpoints")).body.endpoints.map((e: any) => e.file);
    expect(listed).toContain("api/fresh.ts");
    expect(listed).not.toContain("api/messages.ts");
    expect(listed).not.toContain("api/dup.ts");

    for (const f of ["fresh.ts", "messages.ts", "dup.get.ts", "dup.ts", "bad.trace.ts"]) fs.rmSync(path.join(dir, f));
    await waitFor(async () => (await alice("GET", at("/fresh"))).status === 404);
  });

  it("gives endpoints the whole ThreadState: runAgent starts a dual_ai session on an idle thread", async () => {
    fake.setScript([
      { when: { system_contains: "You are the worker." }, respond: { content: "the work" } },
      { when: { system_contains: "You are the reviewer." }, respond: { tool_calls: [{ name: "approve", arguments: { summary: "fine" } }] } },
    ]);
    const created = await alice("POST", "/api/threads", { agent_id: "surface" });
    const id = created.body.threadId;
    expect(await alice("POST", `/api/threads/${id}/run`, { agent: "duo" })).toMatchObject({ status: 200, body: { started: "duo" } });
    const done = await waitFor(async () => {
      const th = (await alice("GET", `/api/threads/${id}`)).body.thread;
      return th.status === "idle" && th.session.ended ? th : undefined;
    });
    expect(done).toMatchObject({ agent_id: "duo", session: { ended: true, reason: "session_stop" } });
    const bad = await alice("POST", `/api/threads/${id}/run`, { agent: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/runAgent: agent "nope" is not defined/);
  });
});
