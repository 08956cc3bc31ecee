import { expect, test } from "@playwright/test";
import { createThread, shot } from "./pages/chat-api";
import { BRIEF, CUSTOM_STATUS, DRAFT, VERDICT, childOf, post, scriptLeadScenario } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";

test("the inspector tree shows a background resumable child and a blocking one live, and drills into both sides", async ({
  page,
  request,
}, testInfo) => {
  await scriptLeadScenario();
  const lead = await createThread(request, { agent_id: "insp_lead" });
  const inspector = new InspectorPage(page);
  await inspector.open(lead);
  await expect(inspector.nodes).toHaveCount(1);

  // The children appear without a reload as the lead spawns them.
  await post(request, lead, "Start the work");
  const writer = inspector.named("Office note");
  const checker = inspector.named("Opening day");
  await expect(writer).toBeVisible({ timeout: 15_000 });
  await expect(checker).toBeVisible();
  await expect(writer.getByTestId("node-agent")).toHaveText("Draft and review");
  await expect(checker.getByTestId("node-agent")).toHaveText("Fact check");
  await expect(writer).toHaveAttribute("data-depth", "1");
  await expect(writer.getByTestId("mode-badge")).toContainText(["background", "resumable", "implicit"]);
  await expect(checker.getByTestId("mode-badge")).toContainText(["blocking", "implicit"]);
  await expect(checker.getByTestId("mode-badge")).not.toContainText(["resumable"]);

  // Live statuses: the blocking check runs, the writer's Reviewer reports a custom status, then each finishes.
  await expect(inspector.status(checker)).toHaveText("running");
  await expect(inspector.status(writer)).toHaveText(CUSTOM_STATUS, { timeout: 15_000 });
  await expect(inspector.status(writer)).toHaveAttribute("data-tone", "custom");
  await shot(page, testInfo, "tree with a custom status");
  await expect(inspector.status(checker)).toHaveText("terminated", { timeout: 15_000 });
  await expect(inspector.status(writer)).toHaveText("idle", { timeout: 15_000 });
  // Each child's own tokens and cost, and the lead's roll-up over its subtree.
  await expect(writer.getByTestId("node-usage")).toContainText("$");
  await expect(inspector.node(lead).getByTestId("node-rollup")).toContainText("Σ");

  // Drill into the writer: both sides labelled, the brief from the parent, tool calls, and its report to the parent.
  await inspector.select(writer);
  await expect(inspector.messagesBy("Parent").first()).toContainText(BRIEF);
  await expect(inspector.messagesBy("Parent").first().getByTestId("message-direction")).toHaveText("↓ from parent");
  await expect(inspector.messagesBy("Writer").first()).toContainText(DRAFT);
  const reviewer = inspector.messagesBy("Reviewer");
  await expect(reviewer.locator('[data-testid="transcript-tool"][data-tool="update_status"]')).toHaveCount(1);
  await expect(reviewer.locator('[data-testid="transcript-tool"][data-tool="approve_draft"]')).toHaveCount(1);
  const written = await childOf(request, lead, "draft_and_review");
  await expect(inspector.toParent("initiated")).toContainText(`The subagent was initiated successfully. Reference: ${written.reference}`);
  await expect(inspector.toParent("report")).toContainText(
    `Subagent (reference: ${written.reference}) has returned the following result:`,
  );
  await expect(inspector.toParent("report")).toContainText(DRAFT);
  await shot(page, testInfo, "writer drill down");

  // The blocking child's result came back as the lead's tool result.
  await inspector.select(checker);
  await expect(inspector.messagesBy("Checker").first()).toContainText("The claim holds");
  await expect(inspector.messagesBy("Auditor").locator('[data-tool="approve_verdict"]')).toHaveCount(1);
  await expect(inspector.toParent("tool_result")).toContainText(VERDICT);
  await expect(inspector.toParent("tool_result")).toContainText("Reference: ");
});

test("the inspector of a thread that does not exist says so instead of waiting", async ({ page }) => {
  await page.goto("/threads/no-such-thread?view=inspector");
  const alert = page.getByRole("alert").filter({ hasText: "The inspector could not be loaded." });
  await expect(alert).toContainText("The inspector could not be loaded.");
  await expect(alert).toContainText("Thread no-such-thread not found");
  await expect(page.getByTestId("inspector-tree")).toHaveCount(0);
});
