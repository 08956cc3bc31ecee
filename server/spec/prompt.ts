import { z } from "zod";
import { identifierSchema, referenceSchema } from "./names";
import { promptContentSchema } from "./prompt-content";
import { envValuesSchema, hookIdListSchema, legacyTenvsSchema, optionsRecordSchema } from "./shared-fields";
import { toolEntrySchema } from "./tool-entry";
import { variableListSchema } from "./variable";
import { type AnyZodObject, zodObjectSchema } from "./zod-like";

/** Tool calling strategies. */
export const TOOL_CHOICES = ["auto", "none", "required"] as const;
/** Tool calling strategy of a prompt. */
export type ToolChoice = (typeof TOOL_CHOICES)[number];

/** Extended-thinking configuration (loose: provider-specific keys are kept). */
export const reasoningConfigSchema = z.looseObject({
  /** Reasoning effort level. */
  effort: z
    .enum(["low", "medium", "high"], {
      error: (issue) => `effort must be 'low', 'medium' or 'high' (got ${JSON.stringify(issue.input)})`,
    })
    .optional(),
  /** Token budget for reasoning. */
  maxTokens: z.number().int().positive({ error: "maxTokens must be a positive whole number" }).optional(),
  /** Use reasoning but leave it out of the response. */
  exclude: z.boolean().optional(),
  /** Include reasoning content in the response. */
  include: z.boolean().optional(),
});
/** Reasoning configuration of a prompt. */
export type ReasoningConfig = z.output<typeof reasoningConfigSchema>;

/**
 * A prompt definition (spec `PromptDefinition`). Unknown keys are dropped. `tools`, `variables` and `env` default
 * to empty; `hooks` stays undefined when absent (the agent's hooks then apply). `tenvs` (deprecated) is kept.
 */
export const promptDefinitionSchema = z.object({
  /** Unique prompt name (snake_case). */
  name: identifierSchema("prompt name", "customer_support"),
  /** Description shown when the prompt is called as a tool (subprompt). */
  toolDescription: z.string().default(""),
  /** System prompt: a string or an array of `text`/`include`/`env` parts. */
  prompt: promptContentSchema,
  /** Model name (a file in `agents/models/`). */
  model: referenceSchema("model"),
  /** Include the full chat history in the context. @default false */
  includeChat: z.boolean().default(false),
  /** Include past tool calls and results in the context. @default false */
  includePastTools: z.boolean().default(false),
  /** Allow several tool calls per step. @default false */
  parallelToolCalls: z.boolean().default(false),
  /** Tool calling strategy. @default 'auto' */
  toolChoice: z
    .enum(TOOL_CHOICES, {
      error: (issue) => `toolChoice must be 'auto', 'none' or 'required' (got ${JSON.stringify(issue.input)})`,
    })
    .default("auto"),
  /** Arguments schema when the prompt is called as a tool: a zod object schema, kept as-is. */
  requiredSchema: zodObjectSchema("requiredSchema").optional(),
  /** Variables this prompt declares. */
  variables: variableListSchema,
  /** Tools offered at this step: callables, subprompts, handoffs and subagents. */
  tools: z.array(toolEntrySchema).default([]),
  /** Prompt-level env values (lowest precedence). */
  env: envValuesSchema.default({}),
  /** @deprecated Use `env`. */
  tenvs: legacyTenvsSchema.optional(),
  /** Tools the model's provider runs itself (`web_search`, `code_execution`); web search citations are kept on the answer. */
  providerTools: z
    .array(z.enum(["web_search", "code_execution"], { error: (i) => `providerTools entries must be 'web_search' or 'code_execution' (got ${JSON.stringify(i.input)})` }))
    .optional(),
  /** Extended-thinking configuration. */
  reasoning: reasoningConfigSchema.optional(),
  /** How many recent messages keep their images in context. @default 10 */
  recentImageThreshold: z
    .number({ error: "recentImageThreshold must be a number" })
    .int({ error: "recentImageThreshold must be a whole number" })
    .nonnegative({ error: "recentImageThreshold must be 0 or more" })
    .default(10),
  /** Provider-specific request options (override the model's). */
  providerOptions: optionsRecordSchema.optional(),
  /** Hook ids active with this prompt (replace the agent's hooks). */
  hooks: hookIdListSchema.optional(),
});

/** A prompt definition as written; `N` keeps the literal name and `S` the `requiredSchema` type. */
export type PromptDefinition<N extends string = string, S extends AnyZodObject = AnyZodObject> = Omit<
  z.input<typeof promptDefinitionSchema>,
  "name" | "requiredSchema"
> & {
  name: N;
  requiredSchema?: S;
};
/** A parsed prompt definition (defaults applied). */
export type ParsedPromptDefinition = z.output<typeof promptDefinitionSchema>;
