import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { AuthServer } from "./pages/auth-server";
import { SignInPage } from "./pages/sign-in-page";

const server = new AuthServer({ name: "auth-bootstrap", offset: 53, admin: { username: "admin", password: "admin-password-1" }, extraAgents: "e2e/fixtures/bootstrap-agents" });
test.beforeAll(async () => server.start());
test.afterAll(async () => server.stop());

test("a subagent waiting for its scoped variables is started from the form on the parent thread's page", async ({ page }) => {
  test.setTimeout(90_000);
  await setScript(E2E_FAKE_LLM_URL, [
    {
      when: { system_contains: "You are the dispatcher.", last_role: "user" },
      times: 1,
      respond: { tool_calls: [{ name: "subagent_create", arguments: { agent: "channel_helper", message: "Join the channel", attachments: [], name: "Channel bot" } }] },
    },
    { when: { system_contains: "You are the channel helper." }, respond: { tool_calls: [{ name: "finish_job", arguments: { result: "joined" } }] } },
    { respond: { content: "ok" } },
  ]);
  await new SignInPage(page, server.url).goAndSignIn("admin", "admin-password-1");
  const created = await page.request.post(`${server.url}/api/threads`, {
    data: { agent_id: "dispatcher", initial_messages: [{ role: "user", content: "Open a channel" }] },
    headers: { origin: server.url },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).threadId as string;

  await page.goto(`${server.url}/threads/${id}`);
  const form = page.getByTestId("scoped-variables-form");
  await expect(form).toContainText("channel_helper");
  await form.getByLabel(/CHANNEL/).fill("#general");
  await form.getByRole("button", { name: "Start the subagent" }).click();
  await expect(page.getByText("Values stored: the subagent channel_helper is starting.")).toBeVisible();

  // The child exists, holds the value, and its request is gone.
  await expect
    .poll(async () => ((await (await page.request.get(`${server.url}/api/threads?parent_id=${id}`)).json()).threads as unknown[]).length)
    .toBe(1);
  await page.reload();
  await expect(page.getByTestId("scoped-variables-form")).toHaveCount(0);
});
