import { expect, test } from "@playwright/test";
import { AuthServer } from "./pages/auth-server";
import { SignInPage } from "./pages/sign-in-page";

// A server with no account: the first visitor creates the admin; from then on every page needs a sign-in.
const server = new AuthServer({ name: "auth-setup", offset: 50 });
test.beforeAll(async () => server.start());
test.afterAll(async () => server.stop());

test("first-run setup, sign-out, sign-in with a return path, and an admin-only page for a plain user", async ({ page }) => {
  test.setTimeout(90_000);
  const auth = new SignInPage(page, server.url);
  await page.goto(server.url);
  await page.getByRole("link", { name: /create the admin account/ }).click();
  await expect(page.getByRole("heading", { name: "Create the administrator account" })).toBeVisible();
  await auth.setup("root", "root-password-1");
  await expect(auth.signedInAs()).toHaveText("root (admin)");

  // Setup is closed once an account exists.
  await page.goto(`${server.url}/setup`);
  await expect(page).toHaveURL(/\/login/);

  // The admin adds a plain user on the Users page.
  await page.goto(`${server.url}/admin/users`);
  const add = page.getByRole("form", { name: "Add user" });
  await add.getByLabel("Username").fill("ursula");
  await add.getByLabel("Password").fill("ursula-password");
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(page.locator('[data-testid="user-row"][data-username="ursula"]')).toBeVisible();

  await auth.signOut();
  // Every page now needs a sign-in, and the sign-in page brings the visitor back.
  await page.goto(`${server.url}/threads`);
  await expect(page).toHaveURL(/\/login\?next=%2Fthreads/);
  await auth.signIn("ursula", "wrong-password");
  await expect(page.getByText("Wrong username or password")).toBeVisible();
  await auth.signIn("ursula", "ursula-password");
  await expect(page).toHaveURL(`${server.url}/threads`);
  await expect(auth.signedInAs()).toHaveText("ursula");
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.goto(`${server.url}/admin/users`);
  await expect(page.getByRole("heading", { name: "Administrators only" })).toBeVisible();
  await auth.signOut();
  const res = await page.request.get(`${server.url}/api/threads`);
  expect(res.status()).toBe(401);
});
