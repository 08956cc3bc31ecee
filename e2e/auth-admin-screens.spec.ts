import { expect, test } from "@playwright/test";
import { expectAccessible } from "./pages/axe";
import { AuthServer } from "./pages/auth-server";
import { SignInPage } from "./pages/sign-in-page";

const server = new AuthServer({ name: "auth-admin-screens", offset: 58, admin: { username: "admin", password: "admin-password-1" } });
test.beforeAll(async () => server.start());
test.afterAll(async () => server.stop());

test("sign-in, users, API keys and variables pass axe; deactivating, removing and revoking ask in an alert dialog that Cancel leaves unchanged", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${server.url}/login`);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectAccessible(page, "the sign-in page");
  await new SignInPage(page, server.url).goAndSignIn("admin", "admin-password-1");

  await page.goto(`${server.url}/admin/users`);
  await page.getByLabel("Username", { exact: true }).fill("bea");
  await page.getByLabel("Password", { exact: true }).fill("bea-password-12");
  await page.getByRole("button", { name: /^Add/ }).click();
  const row = page.getByRole("row").filter({ hasText: "bea" });
  await expect(row.getByTestId("user-status")).toHaveText("active");
  await expectAccessible(page, "Users");

  // Deactivate: Cancel changes nothing; confirming deactivates.
  await row.getByRole("button", { name: "Deactivate" }).click();
  const ask = page.getByRole("alertdialog", { name: "Deactivate bea?" });
  await expect(ask).toContainText("signed out everywhere");
  await expect(ask.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectAccessible(page, "the deactivate dialog");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toHaveCount(0);
  await expect(row.getByTestId("user-status")).toHaveText("active");
  await row.getByRole("button", { name: "Deactivate" }).click();
  await ask.getByRole("button", { name: "Deactivate" }).click();
  await expect(row.getByTestId("user-status")).toContainText("deactivated");

  // Remove, asked the same way.
  await row.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog", { name: "Remove bea?" }).getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("row").filter({ hasText: "bea" })).toHaveCount(0);

  // API keys: revoke asks first; Escape cancels.
  await page.goto(`${server.url}/settings/api-keys`);
  await page.getByLabel("Name").fill("CI");
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByRole("dialog", { name: "New API key" }).getByRole("button", { name: "Done" }).click();
  await expectAccessible(page, "API keys");
  await page.getByTestId("api-key-row").getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("alertdialog", { name: 'Revoke the key "CI"?' })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  await page.getByTestId("api-key-row").getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("button", { name: "Revoke the key" }).click();
  await expect(page.getByTestId("api-key-row")).toHaveCount(0);

  for (const [path, what] of [
    ["/settings/variables", "My variables"],
    ["/admin/variables", "Instance variables"],
  ] as const) {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByRole("heading").first()).toBeVisible();
    await expectAccessible(page, what);
  }
});
