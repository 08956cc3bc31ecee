import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCallerFactory } from "@/server/api/trpc";
import { appRouter } from "@/server/api/root";
import { client, newUser, signIn, type As } from "../helpers/accounts";
import { fixtureAgents, startTestApp, type TestApp } from "../helpers/test-app";

// API keys have scopes, an optional expiry and a last-used time; only a session mints them; resets revoke them.
let t: TestApp;
let admin: As;
beforeAll(async () => {
  t = await startTestApp({ agentsSource: fixtureAgents, env: { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-12345" } });
  admin = await signIn(t.url, "admin", "pw-admin-12345");
});
afterAll(async () => t?.close());

async function newKey(owner: As, body: Record<string, unknown> = {}): Promise<As & { id: string }> {
  const res = await owner("POST", "/api/auth/keys", { name: `key ${Math.random()}`, ...body });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
  const key = client(t.url, res.body.key) as As & { id: string };
  key.id = res.body.api_key.id;
  return key;
}

describe("API keys: lifecycle and scopes", () => {
  it("cannot create, list or revoke keys: that needs a signed-in session", async () => {
    const key = await newKey(admin, { scopes: ["threads:read", "threads:write", "admin"] });
    const minted = await key("POST", "/api/auth/keys", { name: "child" });
    expect([minted.status, minted.body.error.code]).toEqual([403, "SESSION_REQUIRED"]);
    expect((await key("GET", "/api/auth/keys")).status).toBe(403);
    expect((await key("DELETE", `/api/auth/keys/${key.id}`)).status).toBe(403);
    const asKey = createCallerFactory(appRouter)({ app: t.app, caller: { userId: "x", username: "admin", role: "admin", via: "api-key", scopes: ["threads:read", "threads:write", "admin"] } });
    await expect(asKey.account.createKey({ name: "child" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("grants a key only its scopes, over REST and tRPC", async () => {
    const reader = await newKey(admin, { scopes: ["threads:read"] });
    expect((await reader("GET", "/api/threads")).status).toBe(200);
    const refused = await reader("POST", "/api/threads", { agent_id: "chat" });
    expect([refused.status, refused.body.error.code]).toEqual([403, "INSUFFICIENT_SCOPE"]);
    const writer = await newKey(admin, { scopes: ["threads:write"] });
    expect((await writer("POST", "/api/threads", { agent_id: "chat" })).status).toBe(201);
    expect((await writer("GET", "/api/threads")).status).toBe(403);
    // An administrator's key does not administer without the admin scope.
    const plain = await newKey(admin);
    expect((await plain("GET", "/api/auth/keys")).status).toBe(403);
    expect((await plain("GET", "/api/users")).status).toBe(403);
    expect((await plain("PUT", "/api/variables/instance", { variables: [] })).status).toBe(403);
    const adminKey = await newKey(admin, { scopes: ["admin"] });
    expect((await adminKey("GET", "/api/users")).status).toBe(200);
    expect((await adminKey("GET", "/api/threads")).status).toBe(403);
    const trpc = (scopes: ("threads:read" | "threads:write" | "admin")[]) =>
      createCallerFactory(appRouter)({ app: t.app, caller: { userId: null, username: "admin", role: "admin", via: "api-key", scopes } });
    await expect(trpc(["threads:read"]).threads.create({ agent_id: "chat" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(trpc(["threads:read"]).admin.users()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await trpc(["admin"]).admin.users()).toEqual(expect.any(Array));
    // A plain user cannot give a key the admin scope.
    const ursula = await newUser(t.url, admin, "ursula");
    expect((await ursula("POST", "/api/auth/keys", { name: "escalate", scopes: ["admin"] })).status).toBe(403);
  });

  it("records the last use, lists scopes and expiry, and stops a key at its expiry", async () => {
    expect((await admin("POST", "/api/auth/keys", { name: "old", expires_at: "2020-01-01T00:00:00Z" })).status).toBe(400);
    const expiry = new Date(Date.now() + 86_400_000).toISOString();
    const key = await newKey(admin, { expires_at: expiry });
    expect((await key("GET", "/api/auth/me")).status).toBe(200);
    const listed = (await admin("GET", "/api/auth/keys")).body.api_keys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ scopes: ["threads:read", "threads:write"], expires_at: expiry });
    await expect.poll(async () => (await admin("GET", "/api/auth/keys")).body.api_keys.find((k: { id: string }) => k.id === key.id).last_used_at).not.toBeNull();
    await t.app.prisma.apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await key("GET", "/api/auth/me")).status).toBe(401);
    // Hashed at rest.
    const row = await t.app.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key.token);
  });
});

describe("a password reset or a deactivation revokes the user's sessions and keys", () => {
  it("revokes them on a password reset", async () => {
    const carol = await newUser(t.url, admin, "carol");
    const key = await newKey(carol);
    expect((await key("GET", "/api/threads")).status).toBe(200);
    expect((await admin("PATCH", `/api/users/${carol.id}`, { password: "carols-new-passphrase" })).status).toBe(200);
    expect((await key("GET", "/api/threads")).status).toBe(401);
    expect((await carol("GET", "/api/threads")).status).toBe(401);
    expect((await (await signIn(t.url, "carol", "carols-new-passphrase"))("GET", "/api/threads")).status).toBe(200);
  });

  it("revokes them on a deactivation, refuses the account's sign-in, and lets it back in once reactivated", async () => {
    const dave = await newUser(t.url, admin, "dave");
    const key = await newKey(dave);
    const off = await admin("PATCH", `/api/users/${dave.id}`, { active: false });
    expect(off.body.user).toMatchObject({ username: "dave", active: false });
    expect((await key("GET", "/api/threads")).status).toBe(401);
    expect((await dave("GET", "/api/threads")).status).toBe(401);
    const login = await client(t.url, "")("POST", "/api/auth/login", { username: "dave", password: "pw-dave-12345" });
    expect([login.status, login.body.error.code]).toEqual([403, "ACCOUNT_DEACTIVATED"]);
    expect((await admin("PATCH", `/api/users/${dave.id}`, { active: true })).body.user.active).toBe(true);
    expect((await (await signIn(t.url, "dave", "pw-dave-12345"))("GET", "/api/threads")).status).toBe(200);
    // The revoked key stays revoked.
    expect((await key("GET", "/api/threads")).status).toBe(401);
    // Nobody deactivates themselves or the last administrator.
    const me = (await admin("GET", "/api/auth/me")).body.user.id;
    expect((await admin("PATCH", `/api/users/${me}`, { active: false })).status).toBe(409);
  });
});
