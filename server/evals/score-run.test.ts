import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startFakeLlm, type FakeLlm } from "@/scripts/fake-llm/server";
import { createLlmClient } from "@/server/runtime/llm/llm-client";
import { scorerSchema, scorers, type EvalRun, type ScorerInput } from "@/server/spec";
import { createLlmJudge, JUDGE_SYSTEM_PROMPT, parseVerdict } from "./llm-judge";
import { partialMatch, scoreRun, type JudgeFn } from "./score-run";

const run = (over: Partial<EvalRun> = {}): EvalRun => ({
  case: { id: "c1", input: "How many words?", expected: "3 words" },
  reply: "Your text has 3 words.",
  threadId: "t1",
  status: "idle",
  stopReason: "response",
  toolCalls: [{ name: "word_count", args: { text: "one two three", options: { strict: true } }, threadId: "t1" }],
  subagents: ["draft_and_review"],
  steps: 2,
  turns: 1,
  costUsd: 0.002,
  inputTokens: 100,
  outputTokens: 20,
  latencyMs: 1500,
  ...over,
});
const noJudge: JudgeFn = () => Promise.reject(new Error("no judge in this test"));
const score = (s: ScorerInput, r = run(), judge = noJudge) => scoreRun(scorerSchema.parse(s), r, judge);

describe("built-in scorers", () => {
  it("exact / contains / regex compare the final reply (with the case's expected value by default)", async () => {
    expect((await score(scorers.exact("Your text has 3 words."))).passed).toBe(true);
    expect(await score(scorers.exact("your text has 3 words.", { ignoreCase: true }))).toMatchObject({ score: 1, scorer: "exact" });
    const miss = await score(scorers.exact());
    expect(miss).toMatchObject({ score: 0, passed: false });
    expect(miss.reason).toContain('is not "3 words"');
    expect((await score(scorers.contains())).passed).toBe(true);
    expect((await score(scorers.contains("WORDS", { ignoreCase: true }))).passed).toBe(true);
    expect((await score(scorers.contains("sentences"))).passed).toBe(false);
    expect((await score(scorers.contains(), run({ case: { id: "x", input: "i" } }))).reason).toContain("neither the scorer nor case");
    expect((await score(scorers.regex(/\b\d+ words\b/))).passed).toBe(true);
    expect((await score(scorers.regex("^\\d+$"))).passed).toBe(false);
  });

  it("json_schema accepts a zod schema or a JSON Schema object, and says why a reply does not match", async () => {
    const reply = '```json\n{"title": "Launch", "words": 3}\n```';
    expect((await score(scorers.jsonSchema(z.object({ title: z.string(), words: z.number() })), run({ reply }))).passed).toBe(true);
    const jsonSchema = { type: "object", properties: { title: { type: "string" }, words: { type: "integer", minimum: 5 } }, required: ["title", "words"] };
    const bad = await score(scorers.jsonSchema(jsonSchema), run({ reply }));
    expect(bad.passed).toBe(false);
    expect(bad.reason).toContain("words");
    expect((await score(scorers.jsonSchema(jsonSchema), run({ reply: "not json" }))).reason).toContain("not JSON");
  });

  it("tool_called matches arguments partially and deeply; tool_not_called and subagent_spawned look at the whole tree", async () => {
    expect((await score(scorers.toolCalled("word_count"))).passed).toBe(true);
    expect((await score(scorers.toolCalled("word_count", { options: { strict: true } }))).passed).toBe(true);
    const wrongArgs = await score(scorers.toolCalled("word_count", { text: "four" }));
    expect(wrongArgs).toMatchObject({ passed: false, scorer: "tool_called:word_count" });
    expect(wrongArgs.reason).toContain("0 with arguments matching");
    expect((await score(scorers.toolCalled("save_note"))).reason).toContain("never called (called: word_count)");
    expect((await score(scorers.toolCalled("word_count", undefined, { times: 2 }))).passed).toBe(false);
    expect((await score(scorers.toolNotCalled("save_note"))).passed).toBe(true);
    expect((await score(scorers.toolNotCalled("word_count"))).passed).toBe(false);
    expect((await score(scorers.subagentSpawned("draft_and_review"))).passed).toBe(true);
    expect((await score(scorers.subagentSpawned("reviewer"))).reason).toContain("spawned: draft_and_review");
    expect(partialMatch({ a: [1, 2, 3] }, { a: [1, 2] })).toBe(true);
    expect(partialMatch({ a: "x" }, { a: "x", b: 1 })).toBe(false);
  });

  it("budgets: steps, turns, cost and latency", async () => {
    expect((await score(scorers.maxSteps(2))).passed).toBe(true);
    expect((await score(scorers.maxSteps(1))).reason).toBe("2 steps, over the budget of 1");
    expect((await score(scorers.maxTurns(1))).passed).toBe(true);
    expect((await score(scorers.maxCost(0.001))).passed).toBe(false);
    expect((await score(scorers.maxLatency(2000))).passed).toBe(true);
    expect((await score(scorers.maxLatency(1000))).passed).toBe(false);
  });

  it("custom scorers return a boolean, a number or {score, reason}; a throwing one scores 0 with its error", async () => {
    expect(await score(scorers.custom("short", (r) => r.reply.length < 50))).toMatchObject({ scorer: "short", score: 1, passed: true });
    expect(await score(scorers.custom("half", () => 0.4))).toMatchObject({ score: 0.4, passed: false });
    expect(await score(scorers.custom("why", async () => ({ score: 0.9, reason: "good" })))).toMatchObject({ score: 0.9, passed: true, reason: "good" });
    const thrown = await score(scorers.custom("boom", () => {
      throw new Error("kaput");
    }));
    expect(thrown).toMatchObject({ score: 0, passed: false, reason: "the scorer failed: kaput" });
    expect((await score(scorers.custom("bad", () => "yes" as never))).reason).toContain("return a boolean");
  });
});

describe("LLM-as-judge", () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(async () => {
    await fake?.close();
  });
  const models = new Map([["judge_model", { name: "judge_model", provider: "openai", model: "grader-1", inputPrice: 1, outputPrice: 2 }]]);
  const judge = () => createLlmJudge({ llm: createLlmClient({ defaultBaseURL: fake.url, defaultApiKey: "k", maxRetries: 0 }), models: () => models, env: () => undefined });

  it("sends the rubric, input and reply to the chosen model and counts its cost", async () => {
    fake.setScript([{ when: { model: "grader-1", system_contains: "evaluation judge" }, respond: { content: '{"score": 0.8, "reason": "Correct count."}', usage: { prompt_tokens: 1000, completion_tokens: 500 } } }]);
    fake.clearRequests();
    const result = await score(scorers.judge({ model: "judge_model", rubric: "Is the count right?", passScore: 0.7 }), run(), judge());
    expect(result).toMatchObject({ scorer: "judge", score: 0.8, passed: true, reason: "judge (judge_model): Correct count.", inputTokens: 1000, outputTokens: 500 });
    expect(result.costUsd).toBeCloseTo((1000 * 1 + 500 * 2) / 1e6, 12);
    const sent = fake.getRequests()[0]!;
    expect(sent.messages[0]!.content).toBe(JUDGE_SYSTEM_PROMPT);
    expect(String(sent.messages[1]!.content)).toContain("Is the count right?");
    expect(String(sent.messages[1]!.content)).toContain("Your text has 3 words.");
  });

  it("a judge answer that is not a verdict scores 0, its cost still counted", async () => {
    fake.setScript([{ respond: { content: "Looks fine to me", usage: { prompt_tokens: 10, completion_tokens: 10 } } }]);
    const result = await score(scorers.judge({ model: "judge_model", rubric: "r" }), run(), judge());
    expect(result).toMatchObject({ score: 0, passed: false });
    expect(result.reason).toContain("did not answer with JSON");
    expect(result.costUsd).toBeGreaterThan(0);
    expect(() => parseVerdict('{"score": 7}')).toThrow("not a number from 0 to 1");
  });
});
