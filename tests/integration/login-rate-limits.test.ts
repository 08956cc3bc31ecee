import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/test-app";

// Sign-in limits count the socket's address; X-Forwarded-For is believed only from TRUSTED_PROXIES.
let direct: TestApp;
let proxied: TestApp;
const PASSWORD = "correct horse battery";
beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    startTestApp({ env: { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: PASSWORD } }),
    startTestApp({ env: { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: PASSWORD, TRUSTED_PROXIES: "127.0.0.1" } }),
  ]);
});
afterAll(async () => Promise.all([direct?.close(), proxied?.close()]));

/** Requests from a chosen loopback address (127.0.0.0/8 is all this machine), each a different client. */
const from = (address: string) => new Agent({ localAddress: address });
const agents = new Map<string, Agent>();
async function login(app: TestApp, username: string, password: string, opts: { source?: string; forwardedFor?: string } = {}) {
  const source = opts.source ?? "127.0.0.1";
  if (!agents.has(source)) agents.set(source, from(source));
  const res = await undiciFetch(`${app.url}/api/auth/login`, {
    method: "POST",
    dispatcher: agents.get(source),
    headers: { "content-type": "application/json", ...(opts.forwardedFor ? { "x-forwarded-for": opts.forwardedFor } : {}) },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), code: body.error?.code };
}

describe("sign-in rate limits hold", () => {
  it("counts the socket address: a new X-Forwarded-For value per try is still limited, with 429 and Retry-After", async () => {
    const results = [];
    for (let i = 0; i < 60; i++) results.push(await login(direct, "victim", `guess-${i}`, { source: "127.0.0.10", forwardedFor: `10.0.0.${i}` }));
    expect(results.slice(0, 10).every((r) => r.status === 401)).toBe(true);
    expect(results.slice(10).every((r) => r.status === 429 && r.code === "RATE_LIMITED")).toBe(true);
    const retryAfter = Number(results.at(-1)!.retryAfter);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("does not lock the admin out when someone else floods their username from another address", async () => {
    for (let i = 0; i < 15; i++) await login(direct, "admin", `wrong-${i}`, { source: "127.0.0.20" });
    expect((await login(direct, "admin", "still-wrong", { source: "127.0.0.20" })).status).toBe(429);
    expect((await login(direct, "admin", PASSWORD, { source: "127.0.0.21" })).status).toBe(200);
  });

  it("believes X-Forwarded-For from a trusted proxy, reading the address the proxy appended", async () => {
    for (let i = 0; i < 10; i++) expect((await login(proxied, "nobody", `x${i}`, { forwardedFor: "203.0.113.1" })).status).toBe(401);
    expect((await login(proxied, "nobody", "x", { forwardedFor: "203.0.113.1" })).status).toBe(429);
    // A client cannot escape by writing its own entry in front: the proxy appends the real address on the right.
    expect((await login(proxied, "nobody", "x", { forwardedFor: "198.51.100.7, 203.0.113.1" })).status).toBe(429);
    // Another client behind the same proxy has its own bucket.
    expect((await login(proxied, "nobody-else", "x", { forwardedFor: "203.0.113.2" })).status).toBe(401);
    // An untrusted sender's header is ignored: 127.0.0.30 is the client, whatever it claims.
    for (let i = 0; i < 10; i++) await login(proxied, "someone", `x${i}`, { source: "127.0.0.30", forwardedFor: `192.0.2.${i}` });
    expect((await login(proxied, "someone", "x", { source: "127.0.0.30", forwardedFor: "192.0.2.99" })).status).toBe(429);
  });

  it("slows an attack on one username from many addresses, and lets the right password in after a short delay", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await login(proxied, "admin", `guess-${i}`, { forwardedFor: `198.51.100.${i}` })).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toContain(429);
    const owner = await login(proxied, "admin", PASSWORD, { forwardedFor: "192.0.2.200" });
    let status = owner.status;
    if (status === 429) {
      expect(Number(owner.retryAfter)).toBeLessThanOrEqual(15);
      await new Promise((r) => setTimeout(r, Number(owner.retryAfter) * 1000));
      status = (await login(proxied, "admin", PASSWORD, { forwardedFor: "192.0.2.200" })).status;
    }
    expect(status).toBe(200);
  });
});
