import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { client, newUser, signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;
let admin: As;

beforeAll(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({ agentsSource: fixtureAgents, env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("first-run setup", () => {
  it("runs in local mode until the first admin is created at /api/auth/setup, then requires sign-in", async () => {
    const anon = client(t.url, "");
    expect((await anon("GET", "/api/auth/setup")).body).toEqual({ setup_needed: true, setup_token_required: false });
    expect((await anon("GET", "/api/agents")).status).toBe(200); // local mode
    expect((await anon("POST", "/api/auth/setup", { username: "root", password: "short" })).status).toBe(400);
    const res = await anon("POST", "/api/auth/setup", { username: "root", password: "pw-root-12345" });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ username: "root", role: "admin" });
    expect(res.headers.get("set-cookie")).toMatch(/studio_session=.*HttpOnly; SameSite=Lax/);
    expect((await anon("GET", "/api/agents")).status).toBe(401);
    expect((await anon("POST", "/api/auth/setup", { username: "second", password: "pw-second-123" })).status).toBe(409);
    admin = client(t.url, res.body.token);
    expect((await admin("GET", "/api/auth/me")).body.user.username).toBe("root");
  });
});

describe("users administration", () => {
  it("adds, changes the role of, resets the password of and removes users; the last admin stays", async () => {
    const carol = await newUser(t.url, admin, "carol");
    expect((await admin("GET", "/api/users")).body.users.map((u: any) => u.username)).toEqual(["root", "carol"]);
    expect((await admin("POST", "/api/users", { username: "carol", password: "pw-carol-99999" })).status).toBe(409);
    expect((await admin("PATCH", `/api/users/${carol.id}`, { role: "admin" })).body.user.role).toBe("admin");
    expect((await admin("PATCH", `/api/users/${carol.id}`, { role: "user" })).body.user.role).toBe("user");
    // A password reset signs the user out everywhere and the new password works.
    expect((await admin("PATCH", `/api/users/${carol.id}`, { password: "brand-new-pass" })).status).toBe(200);
    expect((await carol("GET", "/api/auth/me")).status).toBe(401);
    const again = await signIn(t.url, "carol", "brand-new-pass");
    expect((await again("GET", "/api/auth/me")).body.user.username).toBe("carol");
    const rootId = (await admin("GET", "/api/auth/me")).body.user.id;
    expect((await admin("PATCH", `/api/users/${rootId}`, { role: "user" })).status).toBe(409);
    expect((await admin("DELETE", `/api/users/${rootId}`)).status).toBe(409);
    expect((await admin("DELETE", `/api/users/${carol.id}`)).status).toBe(204);
    expect((await again("GET", "/api/auth/me")).status).toBe(401);
  });
});

describe("API keys", () => {
  it("creates a named key shown once, lists it by prefix, accepts it as a bearer token, and rejects it once revoked", async () => {
    const dave = await newUser(t.url, admin, "dave");
    const created = await dave("POST", "/api/auth/keys", { name: "CI key" });
    expect(created.status).toBe(201);
    const key: string = created.body.key;
    expect(key).toMatch(/^sak_/);
    expect(created.body.api_key).toMatchObject({ name: "CI key", prefix: key.slice(0, 10), last_used_at: null });
    // Stored hashed: the key itself is nowhere in the database, and never listed again.
    const row = await t.app.prisma.apiKey.findFirstOrThrow({ where: { name: "CI key" } });
    expect(JSON.stringify(row)).not.toContain(key);
    const listed = await dave("GET", "/api/auth/keys");
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body.api_keys).toHaveLength(1);

    const withKey = client(t.url, key);
    expect((await withKey("GET", "/api/auth/me")).body).toMatchObject({ user: { username: "dave" }, mode: "api-key" });
    const thread = await withKey("POST", "/api/threads", { agent_id: "chat" });
    expect(thread.status).toBe(201);
    expect((await withKey("GET", `/api/threads/${thread.body.threadId}/messages`)).status).toBe(200);
    await waitFor(async () => (await dave("GET", "/api/auth/keys")).body.api_keys[0].last_used_at);

    // Another user cannot revoke it; its owner can, and it stops working at once.
    const erin = await newUser(t.url, admin, "erin");
    expect((await erin("DELETE", `/api/auth/keys/${row.id}`)).status).toBe(404);
    expect((await dave("DELETE", `/api/auth/keys/${row.id}`)).status).toBe(204);
    expect((await withKey("GET", "/api/auth/me")).status).toBe(401);
    expect((await withKey("GET", `/api/threads/${thread.body.threadId}`)).status).toBe(401);
    expect((await dave("GET", "/api/auth/keys")).body.api_keys).toHaveLength(0);
  });
});

describe("variable forms: instance and my variables", () => {
  const CANARY = "canary-91c4-user-secret";
  async function probe(c: As, agent: string): Promise<string> {
    fake.setScript([{ when: { last_role: "user" }, respond: { tool_calls: [{ name: agent === "secretive" ? "leaky" : "env_probe", arguments: {} }] } }, { respond: { content: "done" } }]);
    const created = await c("POST", "/api/threads", { agent_id: agent, initial_messages: [{ role: "user", content: "probe" }] });
    expect(created.status).toBe(201);
    const id = created.body.threadId;
    await waitFor(async () => ["idle", "terminated"].includes((await c("GET", `/api/threads/${id}`)).body.thread.status) && (await c("GET", `/api/threads/${id}/messages`)).body.messages.some((m: any) => m.role === "tool"));
    return (await c("GET", `/api/threads/${id}/messages`)).body.messages.find((m: any) => m.role === "tool").content;
  }

  it("resolves values saved through the forms in the documented order: thread, user, instance, then definitions", async () => {
    const frank = await newUser(t.url, admin, "frank");
    expect((await admin("PUT", "/api/variables/instance", { variables: [{ name: "LAYERED", type: "text", value: "instance" }] })).status).toBe(200);
    expect((await frank("PUT", "/api/users/me/variables", { variables: [{ name: "LAYERED", type: "text", value: "user" }] })).status).toBe(200);
    expect(await probe(frank, "env_tool")).toBe("LAYERED=user");
    // A thread's own value (thread settings form) beats the user's.
    const own = (await frank("GET", "/api/threads")).body.threads[0].id;
    const put = await frank("PUT", `/api/threads/${own}/env`, { variables: [{ name: "LAYERED", type: "text", value: "thread" }] });
    expect(put.body.variables).toEqual([expect.objectContaining({ name: "LAYERED", value: "thread" })]);
    await frank("POST", `/api/threads/${own}/messages`, { content: "again" });
    await waitFor(async () => (await frank("GET", `/api/threads/${own}/messages`)).body.messages.filter((m: any) => m.role === "tool").length === 2);
    const tools = (await frank("GET", `/api/threads/${own}/messages`)).body.messages.filter((m: any) => m.role === "tool");
    expect(tools[1].content).toBe("LAYERED=thread");
    const view = await frank("GET", "/api/variables/agents/env_tool");
    expect(view.body.order).toEqual(["thread", "user", "instance", "agent", "tool", "prompt"]);
    expect(view.body.variables).toEqual([]); // env_tool declares no variables; LAYERED only has values
    expect((await frank("PUT", "/api/users/me/variables", { variables: [] })).body.variables).toEqual([]);
    expect(await probe(frank, "env_tool")).toBe("LAYERED=instance");
    expect((await admin("PUT", "/api/variables/instance", { variables: [] })).status).toBe(200);
    expect(await probe(frank, "env_tool")).toBe("LAYERED=tool");
  });

  it("keeps secrets write-only and encrypted; shows where a declared variable comes from and what is missing", async () => {
    const gina = await newUser(t.url, admin, "gina");
    let view = (await gina("GET", "/api/variables/agents/secretive")).body.variables[0];
    expect(view).toMatchObject({ name: "BACKEND_TOKEN", type: "secret", required: true, source: null, missing: true, declared_by: [{ kind: "tool", name: "leaky", subagent_path: [] }] });
    expect((await gina("POST", "/api/threads", { agent_id: "secretive" })).status).toBe(400);

    const saved = await gina("PUT", "/api/users/me/variables", { variables: [{ name: "BACKEND_TOKEN", type: "secret", value: CANARY }] });
    expect(saved.body.variables).toEqual([expect.objectContaining({ name: "BACKEND_TOKEN", type: "secret", value: null, has_value: true })]);
    const stored = await t.app.prisma.envValue.findFirstOrThrow({ where: { scope: "user", name: "BACKEND_TOKEN" } });
    expect(stored.value).not.toContain(CANARY);
    view = (await gina("GET", "/api/variables/agents/secretive")).body.variables[0];
    expect(view).toMatchObject({ source: "user", layers: ["user"], missing: false });

    // Saving the form again without a value keeps the secret.
    await gina("PUT", "/api/users/me/variables", { variables: [{ name: "BACKEND_TOKEN", type: "secret" }] });
    fake.clearRequests();
    const result = await probe(gina, "secretive");
    expect(result).not.toContain(CANARY);
    expect(result).toContain("called backend with token");
    const threads = (await gina("GET", "/api/threads")).body.threads;
    const everything = JSON.stringify({
      vars: (await gina("GET", "/api/users/me/variables")).body,
      threads,
      thread: (await gina("GET", `/api/threads/${threads[0].id}`)).body,
      messages: (await gina("GET", `/api/threads/${threads[0].id}/messages?includeSilent=true`)).body,
      logs: (await gina("GET", `/api/threads/${threads[0].id}/logs`)).body,
      events: await t.app.prisma.threadEvent.findMany({ where: { threadId: threads[0].id } }),
      requests: fake.getRequests(),
    });
    expect(everything).not.toContain(CANARY);
  });

  it("rejects bad names and a new secret without a value, field by field", async () => {
    const bad = await admin("PUT", "/api/variables/instance", { variables: [{ name: "1BAD", type: "text", value: "x" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("variables.0.name");
    const noValue = await admin("PUT", "/api/variables/instance", { variables: [{ name: "NEW_SECRET", type: "secret" }] });
    expect(noValue.status).toBe(400);
  });
});

describe("providers", () => {
  it("lists the endpoints the models use and whether their key is set, never the key", async () => {
    const res = await admin("GET", "/api/providers");
    expect(res.status).toBe(200);
    expect(res.body.providers[0]).toMatchObject({ provider: "openai", base_url: fake.url, key_variable: "OPENAI_API_KEY", key_status: "configured" });
    expect(JSON.stringify(res.body)).not.toContain('"k"');
  });
});
