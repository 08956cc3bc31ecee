import { expect, test } from "@playwright/test";
import { createThread, shot, threadStatus } from "./pages/chat-api";
import { post, registry, scriptLeadScenario } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";

const SECRET = "lead-secret-7f3a9c";

test("the timeline lists every LLM request of the subtree with tokens and cost, and opens a request's full log", async ({
  page,
  request,
}, testInfo) => {
  await scriptLeadScenario({ reviewerDelayMs: 100, checkerDelayMs: 300 });
  const lead = await createThread(request, {
    agent_id: "insp_lead",
    env: { LEAD_TOKEN: SECRET },
    env_types: { LEAD_TOKEN: "secret" },
  } as Parameters<typeof createThread>[1]);
  await post(request, lead, "Start the work");
  await expect
    .poll(async () => (await registry(request, lead)).map((e) => e.status).sort(), { timeout: 20_000 })
    .toEqual(["idle", "terminated"]);
  await expect.poll(() => threadStatus(request, lead), { timeout: 15_000 }).toBe("idle");
  // Every request of the lead and its children, from the REST logs.
  const ids = [lead, ...(await registry(request, lead)).map((e) => e.reference)];
  let expected = 0;
  await expect
    .poll(async () => {
      expected = 0;
      for (const id of ids) expected += ((await (await request.get(`/api/threads/${id}/logs`)).json()) as { logs: unknown[] }).logs.length;
      return expected;
    })
    .toBeGreaterThanOrEqual(7);

  const inspector = new InspectorPage(page);
  await inspector.open(lead);
  // The thread's env: the secret stays masked.
  await inspector.tab("Env").click();
  await expect(page.getByTestId("env-value")).toHaveText("••••");
  await inspector.openTimeline();
  const rows = page.getByTestId("timeline-llm");
  await expect(rows).toHaveCount(expected);
  for (const row of await rows.all()) {
    await expect(row.getByTestId("timeline-tokens")).toHaveText(/^\d+ \/ \d+$/);
    await expect(row.getByTestId("timeline-cost")).toHaveText(/^\$\d/);
    // Streamed responses: each finished request has a duration and a time to first token.
    await expect(row.getByTestId("timeline-duration")).toHaveText(/^\d/);
    await expect(row.getByTestId("timeline-ttft")).toHaveText(/^\d/);
  }
  await expect(page.getByTestId("timeline-tool").filter({ hasText: "update_status" })).toHaveCount(1);
  await expect(page.getByTestId("timeline-tool").filter({ hasText: "approve_draft" })).toHaveCount(1);
  await expect(page.getByTestId("timeline-tool").filter({ hasText: "approve_verdict" })).toHaveCount(1);
  await expect(page.getByTestId("timeline-summary")).toContainText(`${expected} LLM requests`);
  await shot(page, testInfo, "timeline");

  // The lead's first request, in full.
  await rows.filter({ has: page.getByText(/^fast/) }).first().getByRole("button").click();
  const dialog = page.getByTestId("log-dialog");
  await expect(dialog.getByTestId("log-system")).toContainText("You are the inspection lead");
  await expect(dialog.getByTestId("log-usage")).toContainText("Tokens in / out");
  await dialog.getByTestId("log-tools").locator("summary").click();
  await expect(dialog.getByTestId("log-tools")).toContainText("subagent_create");
  await expect(dialog).not.toContainText(SECRET);
  await shot(page, testInfo, "request log");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
});
