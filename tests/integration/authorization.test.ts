import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { createCallerFactory } from "@/server/api/trpc";
import { appRouter } from "@/server/api/root";
import { client, newUser, signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;
let admin: As;
let alice: As & { id: string };
let bob: As & { id: string };
let aliceThread: string;
let aliceChild: string;

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setScript([{ respond: { content: "hello" } }]);
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-123" } });
  admin = await signIn(t.url, "admin", "pw-admin-123");
  alice = await newUser(t.url, admin, "alice");
  bob = await newUser(t.url, admin, "bob");
  const created = await alice("POST", "/api/threads", { agent_id: "chat", tags: ["alice-tag"] });
  expect(created.status).toBe(201);
  aliceThread = created.body.threadId;
  // A descendant of alice's thread, made the way the runtime spawns subagents (the child keeps the parent's owner).
  aliceChild = (await t.app.runtime.createThread({ agentId: "chat", parentId: aliceThread, userId: alice.id })).id;
  expect((await alice("POST", `/api/threads/${aliceThread}/fs/attachments/note.txt`, "private", { "content-type": "text/plain" })).status).toBe(201);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("threads belong to the user who created them", () => {
  it("records the caller as the owner of a REST-created thread", async () => {
    const row = await t.app.prisma.thread.findUniqueOrThrow({ where: { id: aliceThread } });
    expect(row.userId).toBe(alice.id);
  });

  it("answers 404 to another user for the thread and everything under it, as if it did not exist", async () => {
    const id = aliceThread;
    const reads = ["", "/env", "/messages", "/stream", "/subagents", "/logs", "/cost", "/effects", "/fs/", "/fs/attachments/note.txt", "/variables/some-request"];
    for (const p of reads) {
      const res = await bob("GET", `/api/threads/${id}${p}`);
      expect([p, res.status, res.body?.error?.code]).toEqual([p, 404, "NOT_FOUND"]);
    }
    const writes: [string, string, unknown][] = [
      ["POST", "/messages", { content: "hi" }],
      ["POST", "/stop", {}],
      ["POST", "/continue", {}],
      ["POST", "/terminate", {}],
      ["POST", "/variables/some-request", { env: { X: "1" } }],
      ["PUT", "/env", { variables: [{ name: "X", type: "text", value: "1" }] }],
      ["POST", "/fs/attachments/evil.txt", "x"],
      ["DELETE", "/fs/attachments/note.txt", undefined],
    ];
    for (const [method, p, body] of writes) {
      const res = await bob(method, `/api/threads/${id}${p}`, body);
      expect([method, p, res.status]).toEqual([method, p, 404]);
    }
    // Nothing changed: the file is still there and the thread is not terminated.
    expect((await alice("GET", `/api/threads/${id}/fs/attachments/note.txt`)).body).toBe("private");
    expect((await alice("GET", `/api/threads/${id}`)).body.thread.status).not.toBe("terminated");
    // The same answer as for a thread that does not exist.
    expect((await bob("GET", `/api/threads/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it("extends the rule to descendants: the child of alice's thread is hers, and hidden from bob", async () => {
    expect((await alice("GET", `/api/threads/${aliceChild}`)).status).toBe(200);
    expect((await bob("GET", `/api/threads/${aliceChild}`)).status).toBe(404);
    expect((await bob("GET", `/api/threads/${aliceChild}/stream`)).status).toBe(404);
  });

  it("filters lists to the caller's threads; admins see all", async () => {
    const bobThread = (await bob("POST", "/api/threads", { agent_id: "chat" })).body.threadId;
    const ids = async (c: As, q = "") => ((await c("GET", `/api/threads${q}`)).body.threads as { id: string }[]).map((x) => x.id);
    expect(await ids(bob)).toEqual([bobThread]);
    expect(await ids(bob, "?search=alice-tag")).toEqual([]);
    expect(await ids(bob, `?parent_id=${aliceThread}`)).toEqual([]);
    expect(await ids(alice, `?parent_id=${aliceThread}`)).toEqual([aliceChild]);
    expect(await ids(admin)).toEqual(expect.arrayContaining([aliceThread, aliceChild, bobThread]));
    expect((await admin("GET", `/api/threads/${aliceThread}/messages`)).status).toBe(200);
  });

  it("applies the same rules to tRPC procedures", async () => {
    const caller = (c: { id: string; username: string }) =>
      createCallerFactory(appRouter)({ app: t.app, caller: { userId: c.id, username: c.username, role: "user", via: "session" } });
    const asBob = caller({ id: bob.id, username: "bob" });
    const asAlice = caller({ id: alice.id, username: "alice" });
    await expect(asBob.threads.get({ threadId: aliceThread })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asBob.chat.snapshot({ threadId: aliceThread })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asBob.chat.usage({ threadId: aliceThread })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asBob.threads.post({ threadId: aliceThread, content: "hi" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asBob.threads.terminate({ threadId: aliceThread })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await asBob.chat.statuses({ ids: [aliceThread] })).length).toBe(0);
    expect((await asBob.chat.threadList({ limit: 100 })).threads.map((x) => x.id)).not.toContain(aliceThread);
    expect((await asAlice.chat.threadList({ limit: 100 })).threads.map((x) => x.id)).toEqual(expect.arrayContaining([aliceThread, aliceChild]));
    expect((await asAlice.threads.get({ threadId: aliceThread })).id).toBe(aliceThread);
    const created = await asBob.threads.create({ agent_id: "chat" });
    expect((await t.app.prisma.thread.findUniqueOrThrow({ where: { id: created.id } })).userId).toBe(bob.id);
    // Editing definitions and administering are for admins.
    await expect(asBob.editor.save({ changes: [{ op: "delete", file: "agents/chat.ts", hash: null }] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asBob.editor.preview({ changes: [{ op: "delete", file: "agents/chat.ts", hash: null }] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // The editor shows them the definitions read-only, with the reason.
    const seen = await asBob.editor.view();
    expect([seen.readonly, seen.readonlyBecause]).toEqual([true, "role"]);
    expect(seen.definitions.filter((d) => d.writable)).toEqual([]);
    expect(seen.definitions.find((d) => d.kind === "agents")?.reason).toBe("only administrators can change definitions");
    const asAdmin = createCallerFactory(appRouter)({ app: t.app, caller: { userId: null, username: "admin", role: "admin", via: "session" } });
    expect((await asAdmin.editor.view()).readonly).toBe(false);
    await expect(asBob.admin.users()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asBob.admin.saveInstanceVariables({ variables: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // An unauthenticated context is refused.
    await expect(createCallerFactory(appRouter)({ app: t.app, caller: null }).registry.overview()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("the inspector follows the same rules", () => {
  it("hides another user's tree, request logs and children from tRPC callers", async () => {
    const caller = (c: { id: string; username: string }) =>
      createCallerFactory(appRouter)({ app: t.app, caller: { userId: c.id, username: c.username, role: "user", via: "session" } });
    const asBob = caller({ id: bob.id, username: "bob" });
    const asAlice = caller({ id: alice.id, username: "alice" });
    expect((await alice("POST", `/api/threads/${aliceThread}/messages`, { content: "hi" })).status).toBe(202);
    const logId = await waitFor(async () => (await alice("GET", `/api/threads/${aliceThread}/logs`)).body.logs?.[0]?.id as string | undefined);
    expect((await asAlice.inspector.log({ logId })).id).toBe(logId);
    await expect(asBob.inspector.log({ logId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asBob.inspector.tree({ threadId: aliceThread })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asBob.inspector.timeline({ threadId: aliceThread })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(asBob.inspector.messageChild({ parentId: aliceThread, childId: aliceChild, message: "hello" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("admin-only areas and authentication", () => {
  it("forbids users administration and instance variables to non-admins (403)", async () => {
    expect((await bob("GET", "/api/users")).status).toBe(403);
    expect((await bob("POST", "/api/users", { username: "mallory", password: "password123" })).status).toBe(403);
    expect((await bob("PATCH", `/api/users/${bob.id}`, { role: "admin" })).status).toBe(403);
    expect((await bob("DELETE", `/api/users/${alice.id}`)).status).toBe(403);
    expect((await bob("GET", "/api/variables/instance")).status).toBe(403);
    expect((await bob("PUT", "/api/variables/instance", { variables: [] })).status).toBe(403);
    expect((await admin("GET", "/api/variables/instance")).status).toBe(200);
  });

  it("requires credentials on every route but health and sign-in", async () => {
    const anon = client(t.url, "");
    for (const p of ["/api/agents", "/api/threads", `/api/threads/${aliceThread}`, `/api/threads/${aliceThread}/stream`, "/api/auth/keys", "/api/users", "/api/providers", "/api/variables/instance", "/api/users/me/variables"]) {
      expect([p, (await anon("GET", p)).status]).toEqual([p, 401]);
    }
    expect((await anon("GET", "/api/health")).status).toBe(200);
    // First-run setup is refused once an account exists.
    expect((await anon("POST", "/api/auth/setup", { username: "eve", password: "password123" })).status).toBe(409);
  });
});

describe("cross-site request protection (cookie sessions)", () => {
  const cookie = () => ({ cookie: `studio_session=${alice.token}` });
  const post = (headers: Record<string, string>) =>
    fetch(`${t.url}/api/threads`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ agent_id: "chat" }) });

  it("refuses a cookie-authenticated mutation from another origin, or with no origin at all", async () => {
    const foreign = await post({ ...cookie(), origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error.code).toBe("CSRF");
    expect((await post({ ...cookie() })).status).toBe(403);
    expect((await post({ ...cookie(), "sec-fetch-site": "cross-site", referer: "https://evil.example/" })).status).toBe(403);
  });

  it("accepts it from the app's own origin, and bearer clients without any origin", async () => {
    expect((await post({ ...cookie(), origin: t.url })).status).toBe(201);
    expect((await post({ ...cookie(), referer: `${t.url}/threads` })).status).toBe(201);
    expect((await post({ authorization: `Bearer ${alice.token}` })).status).toBe(201);
    // Reads are not mutations.
    expect((await fetch(`${t.url}/api/threads`, { headers: { ...cookie(), origin: "https://evil.example" } })).status).toBe(200);
  });

  it("refuses a cross-site sign-in attempt", async () => {
    const res = await fetch(`${t.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: "https://evil.example" }, body: JSON.stringify({ username: "alice", password: "pw-alice-12345" }) });
    expect(res.status).toBe(403);
  });
});
