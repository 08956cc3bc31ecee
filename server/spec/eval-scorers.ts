import { z } from "zod";
import { modelNameSchema } from "./names";

/**
 * What a scorer sees of one case's run: the final reply, the whole subtree's tool calls and spawned subagents, and
 * the run's budgets (steps = LLM requests of the subtree, turns = assistant replies of the root thread).
 */
export interface EvalRun {
  case: { id: string; input: string; expected?: string; metadata?: Record<string, unknown>; variables?: Record<string, string> };
  /** The root thread's last assistant text ('' when it gave none). */
  reply: string;
  threadId: string;
  /** Root thread status and stop reason when the case ended. */
  status: string;
  stopReason: string | null;
  toolCalls: { name: string; args: unknown; threadId: string }[];
  /** Agent names of every thread spawned below the root. */
  subagents: string[];
  steps: number;
  turns: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}

/** A scorer's verdict: a score between 0 and 1 and why. */
export interface ScoreResult {
  score: number;
  reason?: string;
}

/** A custom scorer's function: a boolean (1 or 0), a number between 0 and 1, or `{ score, reason }`. */
export type CustomScoreFn = (run: EvalRun) => boolean | number | ScoreResult | Promise<boolean | number | ScoreResult>;

const scoreName = z.string().min(1).max(80).regex(/^[A-Za-z0-9_.:-]+$/, { error: "scorer names use letters, digits, _ . : and -" });
const common = { name: scoreName.optional() };
const positive = (what: string) => z.number({ error: `${what} must be a number` }).positive({ error: `${what} must be above 0` });

/** A JSON Schema object or a zod schema (anything with `safeParse`). */
const schemaLike = z.custom<object>((v) => typeof v === "object" && v !== null && !Array.isArray(v), {
  error: "schema must be a zod schema (z.object({...})) or a JSON Schema object ({ type: 'object', ... })",
});

/** Every scorer, told apart by `type`. */
export const scorerSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("exact"), ...common, value: z.string().optional(), ignoreCase: z.boolean().optional(), trim: z.boolean().optional() }).strict(),
    z.object({ type: z.literal("contains"), ...common, value: z.string().min(1).optional(), ignoreCase: z.boolean().optional() }).strict(),
    z
      .object({ type: z.literal("regex"), ...common, pattern: z.string().min(1, { error: "pattern must not be empty" }), flags: z.string().regex(/^[gimsuy]*$/).optional() })
      .strict()
      .superRefine((s, ctx) => {
        try {
          new RegExp(s.pattern, s.flags);
        } catch (error) {
          ctx.addIssue({ code: "custom", path: ["pattern"], message: `not a valid regular expression: ${(error as Error).message}` });
        }
      }),
    z.object({ type: z.literal("json_schema"), ...common, schema: schemaLike }).strict(),
    z.object({ type: z.literal("tool_called"), ...common, tool: z.string().min(1), args: z.record(z.string(), z.unknown()).optional(), times: z.number().int().min(1).optional() }).strict(),
    z.object({ type: z.literal("tool_not_called"), ...common, tool: z.string().min(1) }).strict(),
    z.object({ type: z.literal("subagent_spawned"), ...common, agent: z.string().min(1) }).strict(),
    z.object({ type: z.literal("max_steps"), ...common, max: z.number().int().min(1) }).strict(),
    z.object({ type: z.literal("max_turns"), ...common, max: z.number().int().min(1) }).strict(),
    z.object({ type: z.literal("max_cost"), ...common, usd: positive("usd") }).strict(),
    z.object({ type: z.literal("max_latency"), ...common, ms: positive("ms") }).strict(),
    z
      .object({
        type: z.literal("judge"),
        ...common,
        model: modelNameSchema,
        rubric: z.string().min(1, { error: "rubric must say what a good reply is" }),
        /** Score (0..1) at or above which the case passes this scorer (default 0.5). */
        passScore: z.number().min(0).max(1).optional(),
      })
      .strict(),
    z.object({ type: z.literal("custom"), name: scoreName, score: z.custom<CustomScoreFn>((v) => typeof v === "function", { error: "score must be a function (run) => number | boolean | { score, reason }" }) }).strict(),
  ],
  { error: "unknown scorer: build one with scorers.exact, contains, regex, jsonSchema, toolCalled, toolNotCalled, subagentSpawned, maxSteps, maxTurns, maxCost, maxLatency, judge or custom" },
);

export type ScorerInput = z.input<typeof scorerSchema>;
export type ParsedScorer = z.output<typeof scorerSchema>;
export type ScorerType = ParsedScorer["type"];

/** The name a scorer's results and thresholds go by: its `name`, else its type with its subject. */
export function scorerName(s: ParsedScorer | ScorerInput): string {
  if (s.name) return s.name;
  switch (s.type) {
    case "tool_called":
    case "tool_not_called":
      return `${s.type}:${s.tool}`;
    case "subagent_spawned":
      return `${s.type}:${s.agent}`;
    default:
      return s.type;
  }
}

type Opt<T> = Omit<T, "type">;
type Of<T extends ScorerType> = Extract<ScorerInput, { type: T }>;

/** Builders of the built-in scorers, for eval files: `scorers.contains("thank you")`. */
export const scorers = {
  /** The final reply equals `value` (or the case's `expected`). */
  exact: (value?: string, opts: Opt<Of<"exact">> = {}): Of<"exact"> => ({ type: "exact", ...(value !== undefined ? { value } : {}), ...opts }),
  /** The final reply contains `value` (or the case's `expected`). */
  contains: (value?: string, opts: Opt<Of<"contains">> = {}): Of<"contains"> => ({ type: "contains", ...(value !== undefined ? { value } : {}), ...opts }),
  /** The final reply matches the regular expression. */
  regex: (pattern: string | RegExp, opts: { name?: string; flags?: string } = {}): Of<"regex"> =>
    typeof pattern === "string" ? { type: "regex", pattern, ...opts } : { type: "regex", pattern: pattern.source, flags: pattern.flags, ...opts },
  /** The final reply is JSON that matches the schema (a zod schema or a JSON Schema object). */
  jsonSchema: (schema: object, opts: { name?: string } = {}): Of<"json_schema"> => ({ type: "json_schema", schema, ...opts }),
  /** Tool `tool` was called somewhere in the tree, with arguments that contain `args` (deep partial match). */
  toolCalled: (tool: string, args?: Record<string, unknown>, opts: { name?: string; times?: number } = {}): Of<"tool_called"> => ({ type: "tool_called", tool, ...(args ? { args } : {}), ...opts }),
  toolNotCalled: (tool: string, opts: { name?: string } = {}): Of<"tool_not_called"> => ({ type: "tool_not_called", tool, ...opts }),
  /** A thread of agent `agent` was spawned below the case's thread. */
  subagentSpawned: (agent: string, opts: { name?: string } = {}): Of<"subagent_spawned"> => ({ type: "subagent_spawned", agent, ...opts }),
  maxSteps: (max: number, opts: { name?: string } = {}): Of<"max_steps"> => ({ type: "max_steps", max, ...opts }),
  maxTurns: (max: number, opts: { name?: string } = {}): Of<"max_turns"> => ({ type: "max_turns", max, ...opts }),
  maxCost: (usd: number, opts: { name?: string } = {}): Of<"max_cost"> => ({ type: "max_cost", usd, ...opts }),
  maxLatency: (ms: number, opts: { name?: string } = {}): Of<"max_latency"> => ({ type: "max_latency", ms, ...opts }),
  /** An LLM grades the reply against the rubric, on `model` (a model definition); its cost is counted. */
  judge: (opts: Opt<Of<"judge">>): Of<"judge"> => ({ type: "judge", ...opts }),
  /** Your own scorer. */
  custom: (name: string, score: CustomScoreFn): Of<"custom"> => ({ type: "custom", name, score }),
};
