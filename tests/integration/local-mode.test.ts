import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { client, signIn } from "../helpers/accounts";
import { startTestApp, type TestApp } from "../helpers/test-app";

// Until the first account exists, only this machine runs in local mode; the network needs the setup token.
let proxied: TestApp;
let direct: TestApp;
let firstUser: TestApp;
const logged: string[] = [];
beforeAll(async () => {
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
  [proxied, direct, firstUser] = await Promise.all([
    startTestApp({ env: { TRUSTED_PROXIES: "127.0.0.1" } }),
    startTestApp(),
    startTestApp(),
  ]);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([proxied?.close(), direct?.close(), firstUser?.close()]);
});

const remote = (app: TestApp) => {
  const c = client(app.url, "");
  return (method: string, path: string, body?: unknown) => c(method, path, body, { "x-forwarded-for": "203.0.113.5" });
};

describe("local mode is for this machine only", () => {
  it("refuses an account-less request from another machine, so nobody on the network can make themselves admin", async () => {
    const other = remote(proxied);
    const res = await other("POST", "/api/users", { username: "mallory", password: "mallory-passphrase", role: "admin" });
    expect([res.status, res.body.error.code]).toEqual([401, "SETUP_REQUIRED"]);
    expect((await other("GET", "/api/agents")).status).toBe(401);
    expect(await proxied.app.queries.users.count()).toBe(0);
    // A request relayed by a proxy that is not trusted is not local either, even from loopback.
    expect((await client(direct.url, "")("GET", "/api/agents", undefined, { "x-forwarded-for": "203.0.113.5" })).status).toBe(401);
    // This machine itself still runs in local mode.
    expect((await client(direct.url, "")("GET", "/api/agents")).status).toBe(200);
  });

  it("lets another machine create the first admin only with the one-time setup token printed in the log", async () => {
    const other = remote(proxied);
    expect((await other("GET", "/api/auth/setup")).body).toEqual({ setup_needed: true, setup_token_required: true });
    const body = { username: "root", password: "root-passphrase-1" };
    const missing = await other("POST", "/api/auth/setup", body);
    expect([missing.status, missing.body.error.code]).toEqual([401, "SETUP_TOKEN_REQUIRED"]);
    expect((await other("POST", "/api/auth/setup", { ...body, setup_token: "guessed" })).status).toBe(401);
    const line = logged.find((l) => l.includes("one-time setup token"));
    const token = /setup token (\S+)/.exec(line ?? "")?.[1];
    expect(token).toBeTruthy();
    const done = await other("POST", "/api/auth/setup", { ...body, setup_token: token });
    expect(done.status).toBe(201);
    expect(done.body.user).toMatchObject({ username: "root", role: "admin" });
    expect((await other("POST", "/api/auth/setup", { ...body, setup_token: token })).status).toBe(409);
  });
});

describe("no locked instance", () => {
  it("makes the first account an administrator even when it is created as a plain user", async () => {
    const local = client(firstUser.url, "");
    const created = await local("POST", "/api/users", { username: "plain", password: "plain-passphrase", role: "user" });
    expect(created.status).toBe(201);
    expect(created.body.user.role).toBe("admin");
    // Local mode is over, and the instance has an administrator who can sign in and administer.
    expect((await local("GET", "/api/users")).status).toBe(401);
    const plain = await signIn(firstUser.url, "plain", "plain-passphrase");
    expect((await plain("GET", "/api/users")).status).toBe(200);
    // The second account gets the role it was given.
    expect((await plain("POST", "/api/users", { username: "second", password: "second-passphrase" })).body.user.role).toBe("user");
  });
});
