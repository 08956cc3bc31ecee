import { expect, test } from "@playwright/test";
import { AuthServer } from "./pages/auth-server";
import { SignInPage } from "./pages/sign-in-page";
import { VariablesPage } from "./pages/variables-page";

const server = new AuthServer({ name: "auth-variables", offset: 52, admin: { username: "admin", password: "admin-password-1" } });
test.beforeAll(async () => server.start());
test.afterAll(async () => server.stop());

const SECRET = "tok-canary-5e2a-never-shown";

test("instance and my variables: saved through the forms, secrets write-only, sources and missing values per agent", async ({ page }) => {
  test.setTimeout(90_000);
  await new SignInPage(page, server.url).goAndSignIn("admin", "admin-password-1", "/admin/variables");
  const vars = new VariablesPage(page);

  // support_desk requires SUPPORT_API_TOKEN (secret) and SUPPORT_REGION: both missing at first.
  await vars.pickAgent("support_desk");
  await expect(vars.missingBadge()).toContainText("SUPPORT_API_TOKEN, SUPPORT_REGION");
  await expect(vars.source("SUPPORT_REGION")).toHaveText("missing");

  await vars.add("instance", "SUPPORT_REGION", "eu-west", "text");
  await vars.save("instance");
  await expect(vars.source("SUPPORT_REGION")).toHaveText("From instance");

  // My variables: a secret for this account.
  await page.getByRole("link", { name: "Variables", exact: true }).click();
  await vars.add("user", "SUPPORT_API_TOKEN", SECRET, "secret");
  await vars.save("user");
  await vars.pickAgent("support_desk");
  await expect(vars.source("SUPPORT_API_TOKEN")).toHaveText("From user account");
  await expect(page.getByTestId("agent-variables").getByText("Nothing required is missing")).toBeVisible();

  // Write-only: after a reload the secret's field is empty and masked, and the value is nowhere in the page.
  await page.reload();
  const row = vars.form("user").getByTestId("variable-row").first();
  await expect(row.getByLabel(/^Name/)).toHaveValue("SUPPORT_API_TOKEN");
  await expect(row.getByLabel(/^Value/)).toHaveValue("");
  await expect(row.getByLabel(/^Value/)).toHaveAttribute("placeholder", /stored/);
  expect(await page.content()).not.toContain(SECRET);

  // A user value overrides the instance one; saving the form again keeps the stored secret.
  await vars.add("user", "SUPPORT_REGION", "us-east", "text");
  await vars.save("user");
  await vars.pickAgent("support_desk");
  await expect(vars.source("SUPPORT_REGION")).toHaveText("From user account");
  await expect(vars.source("SUPPORT_API_TOKEN")).toHaveText("From user account");

  // The new-thread form no longer asks for what the variables provide.
  await page.goto(`${server.url}/threads/new?agent=support_desk`);
  await expect(page.getByText("Required information")).toHaveCount(0);
  await page.getByRole("button", { name: "Start thread" }).click();
  await expect(page).toHaveURL(/\/threads\/[0-9a-f-]{36}$/);

  // Thread settings: the thread's own value beats the user's.
  await expect(page.getByRole("button", { name: /^(Hide details|Usage & details)$/ })).toBeVisible();
  if ((await page.getByRole("button", { name: "Usage & details" }).count()) > 0) await page.getByRole("button", { name: "Usage & details" }).click();
  await page.getByRole("button", { name: "Edit thread variables" }).click();
  await vars.add("thread", "SUPPORT_REGION", "ap-south", "text");
  await vars.form("thread").getByRole("button", { name: "Save variables" }).click();
  await expect(page.getByTestId("thread-env")).toContainText("ap-south");
  await expect(vars.source("SUPPORT_REGION")).toHaveText("From thread");
  expect(await page.content()).not.toContain(SECRET);
});
