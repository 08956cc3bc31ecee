import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, signIn, type As } from "../helpers/accounts";
import { freePort, OidcProvider } from "../helpers/oidc-provider";
import { startTestApp, type TestApp } from "../helpers/test-app";

// Single sign-on over HTTP against a real OpenID Connect provider (the Playwright journey does it in a browser).
let t: TestApp;
let provider: OidcProvider;
let admin: As;
beforeAll(async () => {
  provider = new OidcProvider(await freePort());
  t = await startTestApp({
    env: {
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "pw-admin-12345",
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_SCOPES: "openid profile email groups",
      OIDC_ADMIN_CLAIM: "groups",
      OIDC_ADMIN_VALUE: "studio-admins",
    },
  });
  await provider.start(`${t.url}/api/auth/oidc/callback`);
  admin = await signIn(t.url, "admin", "pw-admin-12345");
});
afterAll(async () => {
  await t?.close();
  await provider?.stop();
});

/** A browser in miniature: follows redirects one by one and keeps each host's cookies. */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();
  async go(url: string, init: RequestInit = {}): Promise<{ url: string; status: number; text: string; location: string | null }> {
    const u = new URL(url);
    const cookies = this.jar.get(u.host) ?? new Map<string, string>();
    const res = await fetch(u, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair!.split("=");
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name!.trim());
      else cookies.set(name!.trim(), value.join("="));
    }
    this.jar.set(u.host, cookies);
    const location = res.headers.get("location") ? new URL(res.headers.get("location")!, u).href : null;
    return { url, status: res.status, text: await res.text(), location };
  }
  /** Follow redirects until a page (or `stopAt` matches a location). */
  async follow(url: string, init: RequestInit = {}, stopAt?: RegExp): Promise<{ url: string; status: number; text: string; location: string | null }> {
    let r = await this.go(url, init);
    while (r.location && !(stopAt && stopAt.test(r.location))) r = await this.go(r.location);
    return r;
  }
  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }
}

const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
const action = (html: string, base: string) => new URL(/action="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, "&"), base).href;

async function signInWithProvider(browser: Browser, login: string, next = "/threads") {
  const loginPage = await browser.follow(`${t.url}/api/auth/oidc/login?next=${encodeURIComponent(next)}`);
  expect(loginPage.url.startsWith(provider.issuer)).toBe(true);
  const consent = await browser.follow(action(loginPage.text, loginPage.url), form({ prompt: "login", login, password: "any password" }));
  return browser.follow(action(consent.text, consent.url), form({ prompt: "consent" }), new RegExp(`^${t.url}/(?!api/)`));
}

describe("single sign-on with OpenID Connect", () => {
  it("sends the browser to the provider with PKCE, state and nonce", async () => {
    const browser = new Browser();
    const start = await browser.go(`${t.url}/api/auth/oidc/login?next=/threads`);
    expect(start.status).toBe(302);
    const auth = new URL(start.location!);
    expect(auth.origin).toBe(provider.issuer);
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      client_id: provider.clientId,
      response_type: "code",
      code_challenge_method: "S256",
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.any(String),
      nonce: expect.any(String),
      redirect_uri: `${t.url}/api/auth/oidc/callback`,
    });
  });

  it("creates the account at the first sign-in, with the admin role from the claim, and finds it again", async () => {
    const browser = new Browser();
    const done = await signInWithProvider(browser, "boss.lady");
    expect(done.location).toBe(`${t.url}/threads`);
    const session = client(t.url, browser.cookie(new URL(t.url).host, "studio_session")!);
    expect((await session("GET", "/api/auth/me")).body.user).toMatchObject({ username: "boss.lady", role: "admin" });
    const worker = new Browser();
    await signInWithProvider(worker, "Worker Bee");
    const asWorker = client(t.url, worker.cookie(new URL(t.url).host, "studio_session")!);
    expect((await asWorker("GET", "/api/auth/me")).body.user).toMatchObject({ username: "worker-bee", role: "user" });
    // Signing in again finds the same accounts.
    await signInWithProvider(new Browser(), "boss.lady");
    const sso = (await admin("GET", "/api/users")).body.users.filter((u: { sso: boolean }) => u.sso);
    expect(sso.map((u: { username: string; role: string }) => [u.username, u.role])).toEqual([
      ["boss.lady", "admin"],
      ["worker-bee", "user"],
    ]);
    // No password sign-in for an account made by single sign-on.
    expect((await client(t.url, "")("POST", "/api/auth/login", { username: "worker-bee", password: "" })).status).toBe(400);
  });

  it("refuses a callback that does not match the sign-in this browser started, and a next URL of another site", async () => {
    const browser = new Browser();
    const forged = await browser.go(`${t.url}/api/auth/oidc/callback?code=stolen&state=forged`);
    expect(forged.location).toMatch(new RegExp(`^${t.url}/login\\?error=`));
    const evil = await signInWithProvider(new Browser(), "boss.lady", "//evil.example/");
    expect(evil.location).toBe(`${t.url}/`);
  });
});
