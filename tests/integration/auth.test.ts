import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "correct horse battery" } });
});
afterAll(async () => t?.close());

const call = (path: string, init: RequestInit = {}) => fetch(`${t.url}${path}`, init);
const login = (username: string, password: string) =>
  call("/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }) });

describe("accounts: the first admin from ADMIN_USERNAME/ADMIN_PASSWORD, login, bearer tokens", () => {
  it("keeps /api/health public and refuses other routes without credentials (401)", async () => {
    expect((await call("/api/health")).status).toBe(200);
    const res = await call("/api/agents");
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("UNAUTHORIZED");
    expect((await call("/api/threads", { method: "POST", body: "{}" })).status).toBe(401);
  });

  it("signs in with the admin account and accepts the token as a bearer token and as a cookie", async () => {
    expect((await login("admin", "wrong")).status).toBe(401);
    const res = await login("admin", "correct horse battery");
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.user).toMatchObject({ username: "admin", role: "admin" });
    expect(body.token).toMatch(/^sas_/);
    expect(res.headers.get("set-cookie")).toMatch(/studio_session=.*HttpOnly; SameSite=Lax/);
    const withToken = await call("/api/agents", { headers: { authorization: `Bearer ${body.token}` } });
    expect(withToken.status).toBe(200);
    const me = (await (await call("/api/auth/me", { headers: { cookie: `studio_session=${body.token}` } })).json()) as any;
    expect(me.user.username).toBe("admin");
    expect((await call("/api/agents", { headers: { authorization: "Bearer not-a-token" } })).status).toBe(401);
    await call("/api/auth/logout", { method: "POST", headers: { authorization: `Bearer ${body.token}` } });
    expect((await call("/api/agents", { headers: { authorization: `Bearer ${body.token}` } })).status).toBe(401);
    // Passwords are stored hashed (memory-hard Argon2id), never in clear.
    const user = await t.app.prisma.user.findUniqueOrThrow({ where: { username: "admin" } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain("correct horse battery");
  });

  it("rate-limits repeated sign-in attempts (10 failures a minute per address; one was spent above)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login("ratelimited", "x")).status);
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(9).every((s) => s === 429)).toBe(true);
  });
});
