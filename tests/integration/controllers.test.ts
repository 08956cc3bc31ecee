import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { client, newUser, signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;
let admin: As;
let alice: As & { id: string };
let bob: As & { id: string };

beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setScript([{ respond: { content: "hello from chat" } }]);
  t = await startTestApp({
    agentsSource: fixtureAgents,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-123" },
  });
  admin = await signIn(t.url, "admin", "pw-admin-123");
  alice = await newUser(t.url, admin, "alice");
  bob = await newUser(t.url, admin, "bob");
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("controllers (agents/controllers/**)", () => {
  it("create a thread owned by the caller, started on the posted message", async () => {
    const res = await alice("POST", "/api/controllers/start", { agent: "chat", message: "hi there" });
    expect(res).toMatchObject({ status: 201, body: { agentId: "chat", userId: alice.id } });
    const id = res.body.threadId;
    const messages = await waitFor(async () => {
      const list = (await alice("GET", `/api/threads/${id}/messages`)).body.messages;
      return list.length === 2 ? list : undefined;
    });
    expect(messages.map((m: any) => m.content)).toEqual(["hi there", "hello from chat"]);
    expect((await alice("GET", `/api/threads/${id}`)).body.thread.tags).toEqual(["from:controller"]);
    expect((await bob("GET", `/api/threads/${id}`)).status).toBe(404);
  });

  it("look up only the caller's threads; route params reach the handler", async () => {
    const mine = (await alice("POST", "/api/controllers/start", { agent: "chat" })).body.threadId;
    expect(await alice("GET", `/api/controllers/threads/${mine}`)).toMatchObject({ status: 200, body: { threadId: mine, agentId: "chat" } });
    expect(await bob("GET", `/api/controllers/threads/${mine}`)).toMatchObject({ status: 404, body: { error: { message: "no such thread" } } });
    expect((await admin("GET", `/api/controllers/threads/${mine}`)).status).toBe(200);
    const listed = (await alice("GET", "/api/controllers/mine?agent=chat")).body;
    expect(listed.user).toBe("alice");
    expect(listed.threads).toContain(mine);
    const bobs = (await bob("GET", "/api/controllers/mine")).body;
    expect(bobs).toEqual({ user: "bob", threads: [] });
  });

  it("are authenticated, answer 405/404 for unknown methods and paths, and turn a throw into a 500", async () => {
    expect((await client(t.url, "")("POST", "/api/controllers/start", { agent: "chat" })).status).toBe(401);
    expect((await alice("GET", "/api/controllers/start")).status).toBe(405);
    expect((await alice("GET", "/api/controllers/nothing")).status).toBe(404);
    const failed = await alice("GET", "/api/controllers/fail");
    expect(failed).toMatchObject({ status: 500, body: { error: { code: "ENDPOINT_ERROR", message: "controllers/fail.ts failed: controller exploded" } } });
    // An unknown agent is the caller's mistake: the runtime's error keeps its status.
    const unknown = await alice("POST", "/api/controllers/start", { agent: "nope" });
    expect([unknown.status >= 400 && unknown.status < 500, unknown.body.error.message]).toEqual([true, expect.stringContaining("nope")]);
  });
});
