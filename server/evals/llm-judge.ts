import { resolveModelChain, type ModelDefaults, type ModelDefinitionLike } from "@/server/runtime/llm/resolve-model";
import type { LlmClient } from "@/server/runtime/llm/types";
import type { EvalRun } from "@/server/spec";
import type { JudgeFn } from "./score-run";

/** Marks the judge's system prompt (and lets a scripted model server answer judge requests apart from agents'). */
export const JUDGE_SYSTEM_PROMPT =
  "You are an evaluation judge. You grade an AI assistant's reply against a rubric. " +
  'Answer with one JSON object and nothing else: {"score": <a number from 0 to 1>, "reason": "<one sentence>"}.';

export interface JudgeDeps {
  llm: LlmClient;
  /** The registry's model definitions, read at each call. */
  models: () => ReadonlyMap<string, ModelDefinitionLike>;
  env: (name: string) => string | undefined;
  defaults?: ModelDefaults;
}

function judgeMessages(rubric: string, run: EvalRun): string {
  return [
    `Rubric:\n${rubric}`,
    `User input:\n${run.case.input}`,
    ...(run.case.expected !== undefined ? [`Expected (reference) answer:\n${run.case.expected}`] : []),
    `Assistant's final reply:\n${run.reply || "(no reply)"}`,
    `Tools called: ${run.toolCalls.map((c) => c.name).join(", ") || "none"}`,
  ].join("\n\n");
}

/** Reads `{"score", "reason"}` from the judge's answer (a fenced block or text around it is tolerated). */
export function parseVerdict(text: string): { score: number; reason: string } {
  const match = /\{[\s\S]*\}/.exec(text);
  if (!match) throw new Error(`the judge did not answer with JSON: ${text.slice(0, 120)}`);
  const parsed = JSON.parse(match[0]) as { score?: unknown; reason?: unknown };
  const score = typeof parsed.score === "string" ? Number(parsed.score) : parsed.score;
  if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1)
    throw new Error(`the judge's score ${JSON.stringify(parsed.score)} is not a number from 0 to 1`);
  return { score, reason: typeof parsed.reason === "string" ? parsed.reason : "" };
}

/** An LLM-as-judge: one request to the chosen model (with its fallbacks); the cost of every attempt is counted. */
export function createLlmJudge(deps: JudgeDeps): JudgeFn {
  return async ({ model, rubric, run }) => {
    const models = resolveModelChain(deps.models(), model, deps.env, deps.defaults);
    const result = await deps.llm.complete({
      models,
      messages: [
        { role: "system", content: JUDGE_SYSTEM_PROMPT },
        { role: "user", content: judgeMessages(rubric, run) },
      ],
    });
    const costUsd = result.attempts.reduce((sum, a) => sum + a.cost, 0);
    const inputTokens = result.attempts.reduce((sum, a) => sum + a.usage.inputTokens, 0);
    const outputTokens = result.attempts.reduce((sum, a) => sum + a.usage.outputTokens, 0);
    try {
      const verdict = parseVerdict(result.content ?? "");
      return { ...verdict, reason: `judge (${result.model.name}): ${verdict.reason}`, costUsd, inputTokens, outputTokens };
    } catch (error) {
      return { score: 0, reason: `judge (${result.model.name}): ${(error as Error).message}`, costUsd, inputTokens, outputTokens };
    }
  };
}
