import { z } from "zod";
import { envNameSchema } from "./names";

/** The two kinds of variable: `text` may appear in prompts, `secret` is encrypted and only used inside tools. */
export const VARIABLE_TYPES = ["text", "secret"] as const;
/** Variable value type. */
export type VariableType = (typeof VARIABLE_TYPES)[number];

/**
 * A variable declared by an agent, prompt or tool (spec `VariableDefinition`).
 * `required` defaults to false, `scoped` to false and `description` to the empty string.
 */
export const variableDefinitionSchema = z.object({
  /** Environment variable/property name, e.g. `VECTOR_STORE_ID`. */
  name: envNameSchema,
  /** `text` (plain configuration) or `secret` (encrypted, never shown to a model). */
  type: z.enum(VARIABLE_TYPES, {
    error: (issue) =>
      issue.input === undefined
        ? "required: add `type: 'text'` or `type: 'secret'`"
        : `type must be 'text' or 'secret' (got ${JSON.stringify(issue.input)})`,
  }),
  /** Whether a value must be provided before a thread can run. */
  required: z.boolean().default(false),
  /** Scoped variables are not inherited from the parent thread; they belong to the declarer's subtree. */
  scoped: z.boolean().default(false),
  /** Human-readable description. */
  description: z.string().default(""),
});

/** A parsed variable declaration (all defaults applied): the spec's `VariableDefinition`. */
export type VariableDefinition = z.output<typeof variableDefinitionSchema>;
/** A variable declaration as written in a definition file (`required`, `scoped`, `description` optional). */
export type VariableDefinitionInput = z.input<typeof variableDefinitionSchema>;

/** Schema for a list of variable declarations (defaults to an empty list). */
export const variableListSchema = z.array(variableDefinitionSchema).default([]);
