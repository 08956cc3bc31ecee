import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { post } from "./pages/inspector-scenario";

test.use({ viewport: { width: 1440, height: 900 } });
// A shared, loaded machine: axe and first paints take their time.
test.describe.configure({ timeout: 180_000 });

test("the thread list sorts by activity or creation and filters by creation date and running now, in the address", async ({
  page,
  request,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [{ respond: { content: "ok" } }]);
  const older = await createThread(request, { agent_id: "writing_assistant", tags: ["sortcheck"] });
  const newer = await createThread(request, { agent_id: "writing_assistant", tags: ["sortcheck"] });
  // The older thread gets the latest activity.
  await post(request, older, "bump");
  await expect.poll(async () => (await (await request.get(`/api/threads/${older}`)).json()).thread.status, { timeout: 15_000 }).toBe("idle");

  await page.goto("/threads?q=sortcheck");
  const ids = () => page.locator('[data-testid="thread-list"] a[href^="/threads/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")!.slice(9)));
  await expect.poll(ids).toEqual([older, newer]);
  await page.getByTestId("thread-sort").selectOption("created");
  await expect.poll(ids).toEqual([newer, older]);
  await expect(page).toHaveURL(/sort=created/);

  await page.getByTestId("thread-running-now").check();
  await expect(page).toHaveURL(/status=running/);
  await expect(page.getByTestId("threads-empty")).toBeVisible();
  await page.getByTestId("thread-running-now").uncheck();

  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId("thread-from").fill(tomorrow);
  await expect(page.getByTestId("threads-empty")).toBeVisible();
  await page.getByTestId("thread-from").fill("");
  await expect.poll(ids).toEqual([newer, older]);
  await shot(page, testInfo, "thread list sorted by creation");

  // The address restores the same list.
  await page.reload();
  await expect(page.getByTestId("thread-sort")).toHaveValue("created");
  await expect.poll(ids).toEqual([newer, older]);
});
