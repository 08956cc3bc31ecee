/**
 * The script format of the scripted OpenAI-compatible server: an ordered list of rules. Each rule says when it applies
 * (`when`), how often (`times`), how the answer is delivered (status, headers, delays, a dropped stream) and what the
 * model "says" (`respond`). Unknown keys are rejected so a misspelt condition fails loudly instead of matching everything.
 */
import { z } from "zod";

const toolNames = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

export const whenSchema = z.strictObject({
  /** Equals the request's `model`. */
  model: z.string().min(1).optional(),
  /** Substring of the joined system (and developer) messages. */
  system_contains: z.string().optional(),
  /** Role of the last message. */
  last_role: z.enum(["system", "developer", "user", "assistant", "tool"]).optional(),
  /** Substring of the last message's text content. */
  last_contains: z.string().optional(),
  /** Substring of any message's text content, tool messages included. */
  any_contains: z.string().optional(),
  /** Tool name(s) that must all be offered in `tools`. */
  has_tool: toolNames.optional(),
  /** Tool name(s) that must all be absent from `tools`. */
  lacks_tool: toolNames.optional(),
});

export const scriptedToolCallSchema = z.strictObject({
  name: z.string().min(1),
  /** An object is sent as JSON; a string is sent verbatim (so malformed JSON can be scripted). */
  arguments: z
    .union([z.record(z.string(), z.unknown()), z.string()], {
      error: "must be an object (sent as JSON) or a string (sent verbatim, e.g. malformed JSON)",
    })
    .default({}),
  /** Tool call id; defaults to `call_<request seq>_<index>`. */
  id: z.string().min(1).optional(),
});

export const scriptedUsageSchema = z.strictObject({
  prompt_tokens: z.int().nonnegative().optional(),
  completion_tokens: z.int().nonnegative().optional(),
  cached_tokens: z.int().nonnegative().optional(),
  reasoning_tokens: z.int().nonnegative().optional(),
});

export const respondSchema = z.strictObject({
  content: z.string().optional(),
  tool_calls: z.array(scriptedToolCallSchema).optional(),
  /** Streamed as `delta.reasoning_content`, returned as `message.reasoning_content`. */
  reasoning: z.string().optional(),
  /** Overrides of the estimated token counts. */
  usage: scriptedUsageSchema.optional(),
  /**
   * Pages a provider-run web search found, cited by the answer (`/v1/responses`: a `web_search_call` item and
   * `url_citation` annotations; `/v1/messages`: `server_tool_use` and `web_search_tool_result` blocks; Gemini:
   * `groundingMetadata`). Chat Completions leaves them out.
   */
  citations: z.array(z.strictObject({ url: z.string().min(1), title: z.string().optional() })).optional(),
  /**
   * Code the provider ran for the answer and its output (`/v1/responses`: a `code_interpreter_call` item;
   * `/v1/messages`: a `code_execution` server tool and its result; Gemini: `executableCode` and `codeExecutionResult`).
   */
  code_run: z.strictObject({ code: z.string(), output: z.string() }).optional(),
  /** Images the model returns (base64 `data`; Gemini: `inlineData` parts; `/v1/responses`: `image_generation_call` items). */
  images: z.array(z.strictObject({ data: z.string().min(1), media_type: z.string().regex(/^image\//).default("image/png") })).optional(),
});

export const errorBodySchema = z.union([
  z.string().min(1),
  z.strictObject({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.union([z.string(), z.null()]).optional(),
  }),
]);

export const ruleSchema = z.strictObject({
  when: whenSchema.default({}),
  /** How many requests this rule may answer; unlimited when absent. */
  times: z.int().positive().optional(),
  /** Wait before answering at all. */
  delay_ms: z.int().nonnegative().optional(),
  /** Answer with this HTTP status; 400 and above send an OpenAI-style error body. */
  status: z.int().min(200).max(599).optional(),
  /** Extra response headers, e.g. `{"retry-after": "1"}`. */
  headers: z.record(z.string().min(1), z.string()).optional(),
  /** Error body (message, or {message, type, code}); without `status` it implies 500. */
  error: errorBodySchema.optional(),
  /** Streaming: wait after the response headers, before the first chunk. */
  first_token_delay_ms: z.int().nonnegative().optional(),
  /** Streaming: wait between chunks. */
  token_delay_ms: z.int().nonnegative().optional(),
  /** Destroy the socket after this many streamed chunks (a dropped stream); non-streaming: before any answer. */
  cut_after_chunks: z.int().nonnegative().optional(),
  respond: respondSchema.default({}),
});

export const scriptSchema = z.strictObject({ rules: z.array(ruleSchema) });

/** A rule as written in a script (defaults not yet applied). */
export type Rule = z.input<typeof ruleSchema>;
/** A validated rule. */
export type ParsedRule = z.output<typeof ruleSchema>;
export type ScriptedToolCall = z.output<typeof scriptedToolCallSchema>;
export type ScriptedUsage = z.output<typeof scriptedUsageSchema>;

export interface ScriptIssue {
  /** Field path such as `rules[2].respond.tool_calls[0].name`. */
  path: string;
  message: string;
}

/** A script that failed validation; the message lists every bad field with its path. */
export class ScriptError extends Error {
  readonly code = "INVALID_SCRIPT";
  constructor(
    readonly source: string,
    readonly issues: ScriptIssue[],
  ) {
    super(
      `Invalid fake-llm script (${source}):\n` +
        issues.map((i) => `  - ${i.path}: ${i.message}`).join("\n") +
        "\nFix the field(s) above; the rule format is documented in scripts/fake-llm/script-schema.ts.",
    );
    this.name = "ScriptError";
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

/**
 * Validates a script: `{rules: [...]}` or a bare array of rules. Throws a `ScriptError` naming each bad field path,
 * always relative to `rules` so paths read the same for both input forms.
 */
export function parseScript(input: unknown, source = "script"): ParsedRule[] {
  const wrapped = Array.isArray(input) ? { rules: input } : input;
  const result = scriptSchema.safeParse(wrapped);
  if (result.success) return result.data.rules;
  throw new ScriptError(
    source,
    result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
  );
}
