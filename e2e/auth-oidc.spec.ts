import { expect, test, type Page } from "@playwright/test";
import { E2E_PORT } from "./env";
import { AuthServer } from "./pages/auth-server";
import { OidcProvider } from "../tests/helpers/oidc-provider";
import { SignInPage } from "./pages/sign-in-page";

// Single sign-on with a real OpenID Connect provider started here: the admin role comes from its `groups` claim.
const appPort = E2E_PORT + 55;
const provider = new OidcProvider(E2E_PORT + 60, `http://127.0.0.1:${appPort}/api/auth/oidc/callback`);
const server = new AuthServer({
  name: "auth-oidc",
  offset: 55,
  admin: { username: "admin", password: "admin-password-1" },
  env: {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_SCOPES: "openid profile email groups",
    OIDC_ADMIN_CLAIM: "groups",
    OIDC_ADMIN_VALUE: "studio-admins",
    OIDC_NAME: "Company SSO",
  },
});
test.beforeAll(async () => {
  await provider.start();
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
  await provider.stop();
});

/** Sign in at the provider's own page (any password), and allow the app. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByRole("link", { name: "Sign in with Company SSO" }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("single sign-on: first sign-in creates the account, the role follows the claim, sign-out ends the session", async ({ page, context }) => {
  test.setTimeout(90_000);
  const auth = new SignInPage(page, server.url);

  // A page needs a sign-in; the provider brings the user back to it, with a new admin account from the claim.
  await page.goto(`${server.url}/threads`);
  await expect(page).toHaveURL(/\/login\?next=%2Fthreads/);
  await signInAtProvider(page, "boss.lady");
  await expect(page).toHaveURL(`${server.url}/threads`);
  await expect(auth.signedInAs()).toHaveText("boss.lady (admin)");
  await page.goto(`${server.url}/admin/users`);
  const row = page.locator('[data-testid="user-row"][data-username="boss.lady"]');
  await expect(row).toBeVisible();
  await expect(row.getByTestId("user-status")).toContainText("single sign-on");

  await auth.signOut();
  await page.goto(`${server.url}/threads`);
  await expect(page).toHaveURL(/\/login/);

  // Another person, not in the admin group: a plain user, created at their first sign-in.
  await context.clearCookies();
  await page.goto(`${server.url}/login`);
  await signInAtProvider(page, "worker");
  await expect(auth.signedInAs()).toHaveText("worker");
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole("heading", { name: "Administrators only" })).toBeVisible();
  await auth.signOut();

  // The accounts exist once each: signing in again finds them.
  await context.clearCookies();
  await page.goto(`${server.url}/login`);
  await signInAtProvider(page, "boss.lady");
  await expect(auth.signedInAs()).toHaveText("boss.lady (admin)");
  const users = await page.request.get(`${server.url}/api/users`);
  const names = ((await users.json()).users as { username: string; role: string; sso: boolean }[]).filter((u) => u.sso);
  expect(names).toEqual([
    { username: "boss.lady", role: "admin", sso: true, active: true, id: expect.any(String), created_at: expect.any(String) },
    { username: "worker", role: "user", sso: true, active: true, id: expect.any(String), created_at: expect.any(String) },
  ]);
});
