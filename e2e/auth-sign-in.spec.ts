import { expect, test } from "@playwright/test";
import { expectAccessible } from "./pages/axe";
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
  await expectAccessible(page, "the first-run setup page");
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

  // A thread of the admin's, started from the browser session (same origin).
  const created = await page.request.post(`${server.url}/api/threads`, { data: { agent_id: "writing_assistant", tags: ["root-only"] }, headers: { origin: server.url } });
  expect(created.status()).toBe(201);
  const rootThread = (await created.json()).threadId as string;

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
  // The admin's thread is not hers: not on her list, "does not exist" by id, and its stream and files are 404.
  await page.goto(`${server.url}/threads`);
  await expect(page.locator(`a[href="/threads/${rootThread}"]`)).toHaveCount(0);
  await page.goto(`${server.url}/threads/${rootThread}`);
  await expect(page.getByText("This thread does not exist.")).toBeVisible();
  expect((await page.request.get(`${server.url}/api/threads/${rootThread}/stream`)).status()).toBe(404);
  expect((await page.request.get(`${server.url}/api/threads/${rootThread}/fs/`)).status()).toBe(404);
  // A cookie-authenticated mutation from another origin is refused, over REST and tRPC alike.
  const evil = { origin: "https://evil.example" };
  expect((await page.request.post(`${server.url}/api/threads`, { data: { agent_id: "writing_assistant" }, headers: evil })).status()).toBe(403);
  expect((await page.request.post(`${server.url}/api/trpc/threads.create`, { data: { agent_id: "writing_assistant" }, headers: evil })).status()).toBe(403);
  await auth.signOut();
  const res = await page.request.get(`${server.url}/api/threads`);
  expect(res.status()).toBe(401);
});
