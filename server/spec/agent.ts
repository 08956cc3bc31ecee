import { z } from "zod";
import { identifierSchema } from "./names";
import { envValuesSchema, hookIdListSchema, legacyTenvsSchema } from "./shared-fields";
import { sideConfigSchema } from "./side-config";
import { variableListSchema } from "./variable";

/** Conversation modes: `ai_human` (AI side A, human side B) and `dual_ai` (both sides AI). */
export const AGENT_TYPES = ["ai_human", "dual_ai"] as const;
/** Agent conversation type. */
export type AgentType = (typeof AGENT_TYPES)[number];

/**
 * An agent definition (spec `AgentDefinition`) plus `variables`. Unknown keys are dropped without failing.
 * Rules across fields (a `dual_ai` agent needs `sideB`, `exposeAsTool` needs `toolDescription`) are not checked
 * here: the registry reports them with their own field paths.
 */
export const agentDefinitionSchema = z.object({
  /** Unique agent name (snake_case), used for thread creation, handoffs and subagent tools. */
  name: identifierSchema("agent name", "support_agent"),
  /** `ai_human` (default) or `dual_ai`. */
  type: z
    .enum(AGENT_TYPES, {
      error: (issue) => `type must be 'ai_human' or 'dual_ai' (got ${JSON.stringify(issue.input)})`,
    })
    .default("ai_human"),
  /** Session turn cap (dual_ai): the session ends when both sides completed this many turns. */
  maxSessionTurns: z
    .number({ error: "maxSessionTurns must be a number" })
    .int({ error: "maxSessionTurns must be a whole number" })
    .positive({ error: "maxSessionTurns must be at least 1" })
    .optional(),
  /** Side A: the AI side of `ai_human`, the first AI participant of `dual_ai`. */
  sideA: sideConfigSchema,
  /** Side B: required for `dual_ai`; optional for `ai_human` (the human side). */
  sideB: sideConfigSchema.optional(),
  /** Human-readable label (legacy). */
  title: z.string().optional(),
  /** Brief summary of what the agent does. */
  description: z.string().optional(),
  /** Icon URL or absolute path. */
  icon: z.string().optional(),
  /** Let prompts call this agent as a tool (handoff for `ai_human`, subagent for `dual_ai`). @default false */
  exposeAsTool: z.boolean().default(false),
  /** Description shown to the model when the agent is exposed as a tool. */
  toolDescription: z.string().optional(),
  /** Agent-level default variable values. */
  env: envValuesSchema.optional(),
  /** @deprecated Use `env`. Legacy raw schema of thread variables. */
  tenvs: legacyTenvsSchema.optional(),
  /** Variables this agent declares. */
  variables: variableListSchema,
  /** Fallback hook ids, used when the active prompt declares none. */
  hooks: hookIdListSchema.optional(),
  /** Packaging: npm package name. */
  packageName: z.string().optional(),
  /** Packaging: semver version. */
  version: z.string().optional(),
  /** Packaging: author/copyright holder. */
  author: z.string().optional(),
  /** Packaging: SPDX license identifier. */
  license: z.string().optional(),
});

/** An agent definition as written in a definition file; `N` keeps the literal name. */
export type AgentDefinition<N extends string = string> = Omit<z.input<typeof agentDefinitionSchema>, "name"> & {
  name: N;
};
/** A parsed agent definition (defaults applied, side aliases normalised). */
export type ParsedAgentDefinition = z.output<typeof agentDefinitionSchema>;
