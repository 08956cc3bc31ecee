import { expect, test } from "@playwright/test";
import { shot } from "./pages/chat-api";
import { InspectorPage } from "./pages/inspector-page";
import { seedBigTree } from "./pages/inspector-seed";

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
  // Collapsing the root hides all 204 descendants.
  await inspector.tree.evaluate((el) => (el.scrollTop = 0));
  await inspector.node(root).getByRole("button", { name: /Hide 204 descendants/ }).click();
  await expect(inspector.nodes).toHaveCount(1);
  await shot(page, testInfo, "200 children");
  testInfo.annotations.push({
    type: "figures",
    description: `open ${openMs} ms; rows in DOM ${rendered}; scroll frame gaps p50 ${frames.p50.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms, max ${frames.max.toFixed(1)} ms; live update ${liveMs} ms`,
  });
  console.log(testInfo.annotations.at(-1)!.description);
});
