import { expect, test } from "@playwright/test";
import { AuthServer } from "./pages/auth-server";
import { SignInPage } from "./pages/sign-in-page";

// After sign-in the app goes to `next` only when it is a page of this origin.
const server = new AuthServer({ name: "auth-redirects", offset: 54, admin: { username: "admin", password: "admin-password-1" } });
test.beforeAll(async () => server.start());
test.afterAll(async () => server.stop());

test("a sign-in link cannot send the user to another site", async ({ page, context }) => {
  test.setTimeout(90_000);
  const auth = new SignInPage(page, server.url);
  for (const next of ["/%5Cevil.example/", "/%09/evil.example/", "/%0a/evil.example/", "//evil.example/", "https://evil.example/"]) {
    await context.clearCookies();
    await page.goto(`${server.url}/login?next=${next}`);
    await auth.signIn("admin", "admin-password-1");
    await expect(auth.signedInAs()).toContainText("admin");
    expect([next, new URL(page.url()).origin]).toEqual([next, server.url]);
  }
  // A path of this origin is kept.
  await context.clearCookies();
  await page.goto(`${server.url}/login?next=${encodeURIComponent("/settings/api-keys")}`);
  await auth.signIn("admin", "admin-password-1");
  await expect(page).toHaveURL(`${server.url}/settings/api-keys`);
});
