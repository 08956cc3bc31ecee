import { z } from "zod";
import { scorerName, type EvalRun, type ParsedScorer, type ScoreResult } from "@/server/spec";

/** One scorer's result for one case, as stored. */
export interface CaseScore {
  scorer: string;
  type: ParsedScorer["type"];
  score: number;
  passed: boolean;
  reason: string;
  /** LLM-as-judge only: what grading cost (USD) and its tokens. */
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
}

/** Grades a reply against a rubric on a model; the experiment runner supplies it (it calls the LLM). */
export type JudgeFn = (input: { model: string; rubric: string; run: EvalRun }) => Promise<ScoreResult & { costUsd: number; inputTokens: number; outputTokens: number }>;

const clamp = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);
const bool = (ok: boolean, yes: string, no: string): ScoreResult => ({ score: ok ? 1 : 0, reason: ok ? yes : no });
const short = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** True when `actual` holds everything `expected` has: objects by key (recursively), arrays item by item, else equal. */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (expected instanceof RegExp) return typeof actual === "string" && expected.test(actual);
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.every((e, i) => partialMatch(actual[i], e));
  if (typeof expected === "object" && expected !== null)
    return typeof actual === "object" && actual !== null && Object.entries(expected).every(([k, v]) => partialMatch((actual as Record<string, unknown>)[k], v));
  return Object.is(actual, expected);
}

function expectedOf(value: string | undefined, run: EvalRun, what: string): string | ScoreResult {
  const v = value ?? run.case.expected;
  return v === undefined ? { score: 0, reason: `${what}: neither the scorer nor case "${run.case.id}" gives an expected value` } : v;
}

function jsonSchemaScore(schema: object, reply: string): ScoreResult {
  let data: unknown;
  const text = reply.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, "$1");
  try {
    data = JSON.parse(text);
  } catch {
    return { score: 0, reason: `the reply is not JSON: ${short(reply)}` };
  }
  const zodLike = schema as { safeParse?: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
  const validator = typeof zodLike.safeParse === "function" ? zodLike : z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  const result = validator.safeParse!(data);
  if (result.success) return { score: 1, reason: "the reply is JSON matching the schema" };
  const issues = (result.error?.issues ?? []).slice(0, 3).map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`);
  return { score: 0, reason: `the reply does not match the schema: ${issues.join("; ")}` };
}

/** Runs one scorer on one case's run. A scorer that throws scores 0 with the error as its reason. */
export async function scoreRun(scorer: ParsedScorer, run: EvalRun, judge: JudgeFn): Promise<CaseScore> {
  const name = scorerName(scorer);
  let result: ScoreResult & { costUsd?: number; inputTokens?: number; outputTokens?: number };
  let passAt = 1;
  try {
    result = await evaluate(scorer, run, judge);
    if (scorer.type === "judge") passAt = scorer.passScore ?? 0.5;
    if (scorer.type === "custom") passAt = 0.5;
  } catch (error) {
    result = { score: 0, reason: `the scorer failed: ${(error as Error).message}` };
  }
  const score = clamp(result.score);
  return {
    scorer: name,
    type: scorer.type,
    score,
    passed: score >= passAt,
    reason: result.reason ?? "",
    ...(result.costUsd !== undefined ? { costUsd: result.costUsd, inputTokens: result.inputTokens ?? 0, outputTokens: result.outputTokens ?? 0 } : {}),
  };
}

async function evaluate(s: ParsedScorer, run: EvalRun, judge: JudgeFn): Promise<ScoreResult & { costUsd?: number; inputTokens?: number; outputTokens?: number }> {
  const reply = run.reply;
  switch (s.type) {
    case "exact": {
      const want = expectedOf(s.value, run, "exact");
      if (typeof want !== "string") return want;
      const norm = (x: string) => {
        const t = s.trim === false ? x : x.trim();
        return s.ignoreCase ? t.toLowerCase() : t;
      };
      return bool(norm(reply) === norm(want), "the reply equals the expected text", `the reply "${short(reply)}" is not "${short(want)}"`);
    }
    case "contains": {
      const want = expectedOf(s.value, run, "contains");
      if (typeof want !== "string") return want;
      const hit = s.ignoreCase ? reply.toLowerCase().includes(want.toLowerCase()) : reply.includes(want);
      return bool(hit, `the reply contains "${short(want)}"`, `the reply does not contain "${short(want)}"`);
    }
    case "regex":
      return bool(new RegExp(s.pattern, s.flags).test(reply), `the reply matches /${s.pattern}/`, `the reply does not match /${s.pattern}/${s.flags ?? ""}`);
    case "json_schema":
      return jsonSchemaScore(s.schema, reply);
    case "tool_called": {
      const calls = run.toolCalls.filter((c) => c.name === s.tool);
      const matching = s.args ? calls.filter((c) => partialMatch(c.args, s.args)) : calls;
      const times = s.times ?? 1;
      if (matching.length >= times) return { score: 1, reason: `${s.tool} was called ${matching.length} time(s)${s.args ? " with matching arguments" : ""}` };
      if (calls.length === 0) return { score: 0, reason: `${s.tool} was never called (called: ${[...new Set(run.toolCalls.map((c) => c.name))].join(", ") || "no tool"})` };
      return { score: 0, reason: `${s.tool} was called ${calls.length} time(s), ${matching.length} with arguments matching ${JSON.stringify(s.args)}; wanted ${times}` };
    }
    case "tool_not_called": {
      const n = run.toolCalls.filter((c) => c.name === s.tool).length;
      return bool(n === 0, `${s.tool} was not called`, `${s.tool} was called ${n} time(s)`);
    }
    case "subagent_spawned":
      return bool(run.subagents.includes(s.agent), `a ${s.agent} subagent was spawned`, `no ${s.agent} subagent was spawned (spawned: ${run.subagents.join(", ") || "none"})`);
    case "max_steps":
      return bool(run.steps <= s.max, `${run.steps} step(s), within ${s.max}`, `${run.steps} steps, over the budget of ${s.max}`);
    case "max_turns":
      return bool(run.turns <= s.max, `${run.turns} turn(s), within ${s.max}`, `${run.turns} turns, over the budget of ${s.max}`);
    case "max_cost":
      return bool(run.costUsd <= s.usd, `$${run.costUsd.toFixed(6)}, within $${s.usd}`, `$${run.costUsd.toFixed(6)}, over the budget of $${s.usd}`);
    case "max_latency":
      return bool(run.latencyMs <= s.ms, `${run.latencyMs} ms, within ${s.ms} ms`, `${run.latencyMs} ms, over the budget of ${s.ms} ms`);
    case "judge":
      return judge({ model: s.model, rubric: s.rubric, run });
    case "custom": {
      const out = await s.score(run);
      if (typeof out === "boolean") return { score: out ? 1 : 0, reason: out ? "passed" : "failed" };
      if (typeof out === "number") return { score: out };
      if (out && typeof out === "object" && typeof out.score === "number") return out;
      throw new Error(`returned ${JSON.stringify(out)}; return a boolean, a number between 0 and 1, or { score, reason }`);
    }
  }
}
