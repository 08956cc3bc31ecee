import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoScript } from "../../scripts/demo/script";
import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { api, startTestApp, waitFor, type TestApp } from "../helpers/test-app";

let fake: FakeLlm;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlm({ script: demoScript });
  t = await startTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k" } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("an eval over a subagent tree", () => {
  it("waits for the whole tree, sees the subagent and the tools called inside it, and sums the tree's cost", async () => {
    fs.writeFileSync(
      path.join(t.agentsDir, "evals/delegation.ts"),
      `import { defineEval, scorers } from "@studio/spec";
export default defineEval({
  name: "delegation",
  agent: "writing_assistant",
  cases: [{ id: "launch", input: "Write a short launch announcement for Studio." }],
  scorers: [
    scorers.subagentSpawned("draft_and_review"),
    scorers.toolCalled("draft_and_review", { title: "Launch announcement" }),
    scorers.toolCalled("approve_draft"),
    scorers.toolCalled("update_status", { status: "Round 1: the opening needs the news first" }),
    scorers.contains("Today we launch Studio"),
    scorers.maxTurns(1),
    scorers.maxSteps(3, { name: "tiny_budget" }),
  ],
});
`,
    );
    await waitFor(async () => (await api(t.url, "GET", "/api/evals")).body.evals.some((e: any) => e.name === "delegation"));
    const started = await api(t.url, "POST", "/api/evals/delegation/experiments", {});
    const done = await waitFor(async () => {
      const { body } = await api(t.url, "GET", `/api/experiments/${started.body.experiment.id}`);
      return body.experiment.status !== "running" ? body : undefined;
    }, 60_000);
    const result = done.results[0];
    const byName = Object.fromEntries(result.scores.map((s: any) => [s.scorer, s]));
    expect(byName["subagent_spawned:draft_and_review"].passed).toBe(true);
    expect(byName["tool_called:draft_and_review"].passed).toBe(true);
    expect(byName["tool_called:approve_draft"].passed).toBe(true);
    expect(byName["tool_called:update_status"].passed).toBe(true);
    expect(byName.contains.passed).toBe(true);
    expect(byName.max_turns.passed).toBe(true);
    // The tree made more LLM requests than the tiny budget allows: the assistant, the writer twice, the reviewer thrice.
    expect(result.steps).toBeGreaterThanOrEqual(7);
    expect(byName.tiny_budget).toMatchObject({ passed: false, reason: `${result.steps} steps, over the budget of 3` });
    expect(result.passed).toBe(false);
    const root = await api(t.url, "GET", `/api/threads/${result.thread_id}/cost`);
    expect(root.body.subtree.threads).toBe(2);
    expect(result.cost_usd).toBeCloseTo(root.body.subtree.cost, 10);
    expect(result.cost_usd).toBeGreaterThan(root.body.own.cost);
  });
});
