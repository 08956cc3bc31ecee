import { defineEval, scorers } from "@studio/spec";

/**
 * Everyday requests to the writing assistant: it answers with the expected facts, uses the right tool for each case
 * (the case's `metadata.tool`), stays within a small budget, and a judge finds the reply helpful.
 * Run it with `npx studio eval writing_assistant_basics`.
 */
export default defineEval({
  name: "writing_assistant_basics",
  description: "Counts words with the tool, greets briefly, within budget.",
  agent: "writing_assistant",
  cases: "./writing_assistant_basics.jsonl",
  scorers: [
    scorers.contains(undefined, { name: "mentions_expected", ignoreCase: true }),
    scorers.custom("uses_expected_tool", (run) => {
      const tool = run.case.metadata?.tool;
      if (typeof tool !== "string") return { score: 1, reason: "the case expects no tool" };
      const called = run.toolCalls.some((c) => c.name === tool);
      return { score: called ? 1 : 0, reason: called ? `${tool} was called` : `${tool} was not called` };
    }),
    scorers.maxSteps(6),
    scorers.maxCost(0.05),
    scorers.judge({
      name: "helpful",
      model: "fast",
      rubric: "1 when the reply answers the user's request directly and correctly, 0 when it does not; in between for partial answers.",
      passScore: 0.6,
    }),
  ],
  thresholds: { passRate: 1, helpful: 0.7 },
  concurrency: 2,
});
