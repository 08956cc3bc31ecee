import { expect, test, type APIRequestContext } from "@playwright/test";
import { formatCost, formatTokens } from "../components/threads/format";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { shot } from "./pages/chat-api";
import { post } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";
import { seedBigTree } from "./pages/inspector-seed";

/** The root's roll-up as the server computes it now, formatted like the tree row. */
async function serverRollup(request: APIRequestContext, root: string): Promise<string> {
  const res = await request.get(`/api/trpc/inspector.tree?input=${encodeURIComponent(JSON.stringify({ threadId: root }))}`);
  const body = (await res.json()) as { result: { data: { nodes: { subtree: { inputTokens: number; outputTokens: number; cost: number } }[] } } };
  const s = body.result.data.nodes[0]!.subtree;
  return `Σ ${formatTokens(s.inputTokens + s.outputTokens)} tok · ${formatCost(s.cost)}`;
}

test("a seeded tree of 200 children and 5 levels opens fast, renders only what is in view, and updates live", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { root, wide, deep } = await seedBigTree(request, { wide: 200, deep: 4 });
  const inspector = new InspectorPage(page);
  const started = Date.now();
  await inspector.open(root);
  await expect(inspector.tree).toHaveAttribute("data-count", String(1 + wide.length + deep.length));
  await expect(inspector.named("Check 001")).toBeVisible();
  const openMs = Date.now() - started;
  // Virtualized: a few dozen rows in the DOM, not 205.
  const rendered = await inspector.nodes.count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(60);
  // Five levels: root → Check 001 → Level 2 … Level 5.
  await expect(inspector.named("Level 5")).toHaveAttribute("data-depth", "5");
  // Roll-ups: 204 seeded requests of 120 tokens and $0.001 each under the root.
  await expect(inspector.node(root).getByTestId("node-rollup")).toHaveText("Σ 24.5k tok · $0.20");
  await expect(inspector.named("Check 001").getByTestId("node-rollup")).toHaveText("Σ 600 tok · $0.0050");

  // Scroll to the last child, sampling frame gaps on the way.
  const frames = await inspector.tree.evaluate(async (el) => {
    const gaps: number[] = [];
    let last = performance.now();
    for (let i = 0; i < 60; i++) {
      el.scrollTop += 200;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    gaps.sort((a, b) => a - b);
    return { p50: gaps[30]!, p95: gaps[57]!, max: gaps[59]! };
  });
  const lastChild = inspector.named("Check 200");
  await expect(lastChild).toBeVisible();

  // A status change deep in the list arrives live: terminate the last child over the API.
  const t0 = Date.now();
  const res = await request.post(`/api/threads/${wide.at(-1)}/terminate`);
  expect(res.ok(), await res.text()).toBe(true);
  await expect(inspector.status(lastChild)).toHaveText("terminated");
  const liveMs = Date.now() - t0;
  // The root's registry (200 entries) and the subtree's timeline (204 requests) are virtualized too.
  await inspector.tab("Registry").click();
  await expect(inspector.registryText).toContainText("instance: Check 001;");
  await expect(inspector.registryText).toContainText("instance: Check 199;");
  const entries = inspector.panel.getByTestId("registry-entry");
  await expect(entries.first()).toBeVisible();
  expect(await entries.count()).toBeLessThan(40);
  await inspector.openTimeline();
  await expect(page.getByTestId("timeline")).toHaveAttribute("data-count", "204");
  await expect(page.getByTestId("timeline-summary")).toContainText("204 LLM requests");
  await expect(page.getByTestId("timeline-llm").first()).toBeVisible();
  expect(await page.getByTestId("timeline-llm").count()).toBeLessThan(80);
  await inspector.tab("Tree").click();

  // Usage arrives live and rolls up: a child runs against the scripted LLM; its own tokens and cost grow, and the
  // root's roll-up (recomputed in the browser from the patches) ends equal to the server's.
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { system_contains: "You are the Checker" }, respond: { content: "Claim 2 holds." } },
    { when: { system_contains: "You are the Auditor" }, respond: { tool_calls: [{ name: "approve_verdict", arguments: { verdict: "Claim 2: true." } }] } },
    { when: { system_contains: "You are the inspection lead" }, respond: { content: "Noted." } },
  ]);
  await inspector.tree.evaluate((el) => (el.scrollTop = 0));
  const second = inspector.named("Check 002");
  const rollup = inspector.node(root).getByTestId("node-rollup");
  await expect(second.getByTestId("node-usage")).toHaveText("120 tok · $0.0010");
  await post(request, wide[1]!, "Check claim 2");
  await expect(second.getByTestId("node-usage")).not.toHaveText("120 tok · $0.0010", { timeout: 15_000 });
  await expect(rollup).not.toHaveText("Σ 24.5k tok · $0.20");
  await expect.poll(async () => (await rollup.textContent()) === (await serverRollup(request, root)), { timeout: 15_000 }).toBe(true);

  // Collapsing the root hides all 204 descendants.
  await inspector.node(root).getByRole("button", { name: /Hide 204 descendants/ }).click();
  await expect(inspector.nodes).toHaveCount(1);
  await shot(page, testInfo, "200 children");
  testInfo.annotations.push({
    type: "figures",
    description: `open ${openMs} ms; rows in DOM ${rendered}; scroll frame gaps p50 ${frames.p50.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms, max ${frames.max.toFixed(1)} ms; live update ${liveMs} ms`,
  });
  console.log(testInfo.annotations.at(-1)!.description);
});
