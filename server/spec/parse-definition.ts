import type { z } from "zod";
import { agentDefinitionSchema, type ParsedAgentDefinition } from "./agent";
import { effectDefinitionSchema, type ParsedEffectDefinition } from "./effect";
import { type FormattedIssue, formatZodIssues } from "./format-issues";
import { hookDefinitionSchema, type ParsedHookDefinition } from "./hook";
import { modelDefinitionSchema, type ParsedModelDefinition } from "./model";
import { type ParsedPromptDefinition, promptDefinitionSchema } from "./prompt";
import type { DefinitionKind } from "./registry-names";
import { type ParsedToolDefinition, toolDefinitionSchema } from "./tool";

/** The zod schema validating each definition kind. */
export const DEFINITION_SCHEMAS = {
  agents: agentDefinitionSchema,
  prompts: promptDefinitionSchema,
  models: modelDefinitionSchema,
  tools: toolDefinitionSchema,
  hooks: hookDefinitionSchema,
  effects: effectDefinitionSchema,
} as const satisfies Record<DefinitionKind, z.ZodType>;

/** The parsed definition type of each kind. */
export interface ParsedDefinitionMap {
  agents: ParsedAgentDefinition;
  prompts: ParsedPromptDefinition;
  models: ParsedModelDefinition;
  tools: ParsedToolDefinition;
  hooks: ParsedHookDefinition;
  effects: ParsedEffectDefinition;
}

/** Result of `safeParseDefinition`. */
export type DefinitionParseResult<K extends DefinitionKind> =
  { success: true; data: ParsedDefinitionMap[K] } | { success: false; issues: FormattedIssue[] };

/**
 * Validates a definition file's default export as kind `kind`. On failure, returns formatted issues (dotted
 * field paths, messages that say what to write).
 */
export function safeParseDefinition<K extends DefinitionKind>(kind: K, value: unknown): DefinitionParseResult<K> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const shown = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    return {
      success: false,
      issues: [{ path: "", code: "invalid_type", message: `the default export must be an object (got ${shown})` }],
    };
  }
  const schema: z.ZodType = DEFINITION_SCHEMAS[kind];
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { success: true, data: parsed.data as ParsedDefinitionMap[K] };
  return { success: false, issues: formatZodIssues(parsed.error.issues, value) };
}
