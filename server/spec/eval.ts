import { z } from "zod";
import { ENV_NAME_PATTERN, identifierSchema } from "./names";
import { scorerSchema, type ScorerInput } from "./eval-scorers";

export * from "./eval-scorers";

/** The folder under AGENTS_DIR that holds evals (`evals/<name>.ts`, with case files next to them). */
export const EVALS_FOLDER = "evals";

/** Case file extensions an eval's `cases` may name (`cases: "./writing.jsonl"`). */
export const EVAL_CASE_FILE_EXTENSIONS = [".jsonl", ".csv"] as const;

const messageSchema = z.object({
  role: z.enum(["user", "assistant"], { error: "role must be 'user' or 'assistant'" }),
  content: z.string({ error: "content must be a string" }),
});

/** A file sent with the case's last user message: a file next to the eval (`file`), or inline base64 content. */
const caseAttachmentSchema = z.union(
  [
    z.object({ file: z.string().min(1), mimeType: z.string().min(1).optional() }).strict(),
    z.object({ name: z.string().min(1), mimeType: z.string().min(1), data: z.string() }).strict(),
  ],
  { error: "an attachment is { file: './photo.png' } (a file next to the eval) or { name, mimeType, data } (base64)" },
);

const envValues = z.record(
  z.string().regex(ENV_NAME_PATTERN, { error: "variable names are letters, digits and _ (e.g. TONE)" }),
  z.string({ error: "variable values must be strings" }),
);

/**
 * One case: the conversation that starts the thread (`input` is a shorthand for one user message) and what is
 * expected of it. `expected` is what `exact` and `contains` scorers without their own value compare with.
 */
export const evalCaseSchema = z
  .object({
    id: z.string().min(1).max(120).optional(),
    input: z.string().min(1, { error: "input must not be empty: the user message that starts the case" }).optional(),
    messages: z.array(messageSchema).min(1).optional(),
    /** Files sent with the last user message. */
    attachments: z.array(caseAttachmentSchema).max(20).optional(),
    /** Thread variables for this case (over the eval's `env`). */
    variables: envValues.optional(),
    expected: z.string().optional(),
    /** Anything a custom scorer wants to read. */
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.input === undefined && c.messages === undefined)
      ctx.addIssue({ code: "custom", path: ["input"], message: "required: add `input: '<the user message>'` (or `messages: [{ role: 'user', content }]`)" });
    if (c.input !== undefined && c.messages !== undefined)
      ctx.addIssue({ code: "custom", path: ["messages"], message: "give either `input` or `messages`, not both" });
    const last = c.messages?.at(-1);
    if (last && last.role !== "user")
      ctx.addIssue({ code: "custom", path: ["messages", c.messages!.length - 1, "role"], message: "the last message must be the user's, so the agent answers it" });
  });

export type EvalCase = z.input<typeof evalCaseSchema>;
export type ParsedEvalCase = z.output<typeof evalCaseSchema>;

/** Per-scorer minimum mean score (0..1); `passRate` is the minimum share of cases that pass every scorer. */
const thresholdsSchema = z.record(z.string().min(1), z.number().min(0, { error: "thresholds are between 0 and 1" }).max(1, { error: "thresholds are between 0 and 1" }));

/** The fields of `defineEval`. */
export const evalDefinitionSchema = z
  .object({
    name: identifierSchema("eval name", "writing_quality"),
    description: z.string().optional(),
    /** The agent each case starts a thread of. */
    agent: z.string().min(1, { error: "agent must name an agent, e.g. 'writing_assistant'" }),
    /** Inline cases, or the path of a `.jsonl` / `.csv` file next to the eval (`"./cases.jsonl"`). */
    cases: z.union([
      z.array(z.unknown()).min(1, { error: "cases must hold at least one case" }),
      z.string().regex(/\.(jsonl|csv)$/i, { error: "a cases file must end in .jsonl or .csv, e.g. './writing.jsonl'" }),
    ], { error: "cases must be an array of cases or the path of a .jsonl or .csv file next to the eval" }),
    scorers: z.array(scorerSchema).min(1, { error: "scorers must hold at least one scorer, e.g. contains('thank you')" }),
    /** Thread variables for every case. */
    env: envValues.optional(),
    thresholds: thresholdsSchema.optional(),
    /** Cases run at once (default 4). */
    concurrency: z.number().int().min(1).max(64).optional(),
    /** Longest time one case may run before it is stopped and fails (default 120 s). */
    timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  })
  .strict();

export type EvalDefinition = Omit<z.input<typeof evalDefinitionSchema>, "cases" | "scorers"> & {
  cases: EvalCase[] | string;
  scorers: ScorerInput[];
};
export type ParsedEvalDefinition = z.output<typeof evalDefinitionSchema>;

/** Define an eval: run `agent` over `cases` and grade each run with `scorers` (`agents/evals/<name>.ts`). */
export function defineEval(definition: EvalDefinition): EvalDefinition {
  return definition;
}
