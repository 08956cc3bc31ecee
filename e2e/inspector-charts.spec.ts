import { expect, test } from "@playwright/test";
import { expectAccessible, useTheme } from "./pages/axe";
import { createThread, shot, threadStatus } from "./pages/chat-api";
import { post, registry, scriptLeadScenario } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 180_000 });

interface Log {
  model_name: string;
}

for (const theme of ["light", "dark"] as const) {
  test(`the Charts tab draws cost and tokens over time for the subtree and a chosen thread, and per model (${theme})`, async ({ page, request }, testInfo) => {
    await useTheme(page, theme);
    await scriptLeadScenario({ reviewerDelayMs: 100, checkerDelayMs: 200 });
    const lead = await createThread(request, { agent_id: "insp_lead" });
    await post(request, lead, "Start the work");
    await expect.poll(async () => (await registry(request, lead)).map((e) => e.status).sort(), { timeout: 30_000 }).toEqual(["idle", "terminated"]);
    await expect.poll(() => threadStatus(request, lead), { timeout: 15_000 }).toBe("idle");
    const children = await registry(request, lead);
    const logs: Log[] = [];
    for (const id of [lead, ...children.map((e) => e.reference)]) logs.push(...((await (await request.get(`/api/threads/${id}/logs`)).json()) as { logs: Log[] }).logs);
    const perModel = new Map<string, number>();
    for (const l of logs) perModel.set(l.model_name, (perModel.get(l.model_name) ?? 0) + 1);

    const inspector = new InspectorPage(page);
    await inspector.open(lead);
    await inspector.tab("Charts").click();
    await expect(page).toHaveURL(/tab=charts/);
    const cost = page.getByTestId("chart-cost");
    // Two cost lines (subtree and this thread) and a legend; the models chart has one bar group per model.
    await expect(cost.locator(".recharts-line")).toHaveCount(2, { timeout: 30_000 });
    await expect(page.getByTestId("chart-tokens").locator(".recharts-line")).toHaveCount(2);
    await expect(page.getByTestId("chart-models").locator(".recharts-bar-rectangle")).toHaveCount(perModel.size * 2);
    // The per-model table counts the same requests as the REST request logs.
    const modelRows = page.getByTestId("totals-models").locator("tbody tr");
    await expect(modelRows).toHaveCount(perModel.size);
    for (const [model, n] of perModel) {
      await expect(modelRows.filter({ has: page.getByRole("rowheader", { name: model, exact: true }) }).locator("td").first()).toHaveText(String(n));
    }
    await expect(page.getByTestId("totals-threads").locator("tbody tr")).toHaveCount(1 + children.length);
    // The subtree's total cost matches the Inspector header's (another query over the same logs).
    const headerCost = (await page.getByTestId("inspector-total").textContent())!.split("·").pop()!.trim();
    await expect(cost.locator("figcaption")).toContainText(`subtree ${headerCost}`);
    await shot(page, testInfo, `charts ${theme}`);
    await expectAccessible(page, `the Charts tab (${theme})`);

    // A chosen child: its own line grows only on its requests, below the subtree's.
    await inspector.tab("Tree").click();
    const checker = inspector.agentNode("Fact check");
    await inspector.select(checker.first());
    await inspector.tab("Charts").click();
    await expect(cost.locator("figcaption")).toContainText("Fact check");
    await expect(cost.locator("figcaption")).toContainText(`subtree ${headerCost}`);
  });
}
