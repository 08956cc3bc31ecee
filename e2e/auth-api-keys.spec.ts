import { expect, test } from "@playwright/test";
import { AuthServer } from "./pages/auth-server";
import { SignInPage } from "./pages/sign-in-page";

const server = new AuthServer({ name: "auth-keys", offset: 51, admin: { username: "admin", password: "admin-password-1" } });
test.beforeAll(async () => server.start());
test.afterAll(async () => server.stop());

test("create an API key, see it once, use it as a bearer token, and revoke it", async ({ page, playwright }) => {
  test.setTimeout(90_000);
  await new SignInPage(page, server.url).goAndSignIn("admin", "admin-password-1");
  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Name").fill("Deploy script");
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "New API key" });
  await expect(dialog).toContainText("save this key now");
  const key = (await dialog.getByTestId("new-api-key").textContent())!.trim();
  expect(key).toMatch(/^sak_/);
  await dialog.getByRole("button", { name: "Done" }).click();
  const row = page.getByTestId("api-key-row").filter({ hasText: "Deploy script" });
  await expect(row).toContainText(key.slice(0, 10));
  await expect(row).toContainText("Never");
  // Shown once: after a reload the page holds the prefix only.
  await page.reload();
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  expect(await page.content()).not.toContain(key);

  // A client with no cookies uses the key.
  const api = await playwright.request.newContext({ baseURL: server.url, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  const me = await api.get("/api/auth/me");
  expect(me.status()).toBe(200);
  expect((await me.json()).user.username).toBe("admin");
  expect((await api.post("/api/threads", { data: { agent_id: "writing_assistant" } })).status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("api-key-row")).not.toContainText("Never");

  await page.getByTestId("api-key-row").getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog", { name: 'Revoke the key "Deploy script"?' }).getByRole("button", { name: "Revoke the key" }).click();
  await expect(page.getByTestId("api-key-row")).toHaveCount(0);
  expect((await api.get("/api/auth/me")).status()).toBe(401);
  await api.dispose();
});
