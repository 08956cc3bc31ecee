import { z } from "zod";

/** Pattern for definition names (agents, prompts, tools, hooks, effects): usable as an LLM function name. */
export const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** Longest name accepted for a definition (the limit of OpenAI-compatible function names). */
export const IDENTIFIER_MAX_LENGTH = 64;
/** Pattern for model names: like identifiers, plus `.` and `:` (e.g. `gpt-4.1-mini`). */
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
/** Pattern for environment variable names (e.g. `VECTOR_STORE_ID`). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Schema for the name of a definition. `what` names the thing in messages ("agent name").
 * Names must start with a letter and hold only letters, digits, `_` and `-` (snake_case is the convention).
 */
export function identifierSchema(what: string, example: string) {
  return z
    .string()
    .min(1, { error: `${what} must not be empty: use a snake_case name such as "${example}"` })
    .max(IDENTIFIER_MAX_LENGTH, {
      error: `${what} must be at most ${IDENTIFIER_MAX_LENGTH} characters long`,
    })
    .regex(IDENTIFIER_PATTERN, {
      error: (issue) =>
        `${what} ${JSON.stringify(issue.input)} is not a valid name: use only letters, digits, "_" and "-", ` +
        `starting with a letter (for example "${example}")`,
    });
}

/** Schema for a model definition name (identifier characters plus `.` and `:`). */
export const modelNameSchema = z
  .string()
  .min(1, { error: 'model name must not be empty: use a name for the use case, such as "fast"' })
  .max(IDENTIFIER_MAX_LENGTH, { error: `model name must be at most ${IDENTIFIER_MAX_LENGTH} characters long` })
  .regex(MODEL_NAME_PATTERN, {
    error: (issue) =>
      `model name ${JSON.stringify(issue.input)} is not valid: use letters, digits, "_", "-", "." and ":" ` +
      `(for example "fast" or "careful")`,
  });

/** Schema for an environment variable name. */
export const envNameSchema = z
  .string()
  .min(1, { error: 'variable name must not be empty: use a name such as "API_KEY"' })
  .regex(ENV_NAME_PATTERN, {
    error: (issue) =>
      `variable name ${JSON.stringify(issue.input)} is not valid: use letters, digits and "_", ` +
      `not starting with a digit (for example "VECTOR_STORE_ID")`,
  });

/**
 * Schema for a reference to another definition (a prompt, model, tool, agent or hook name).
 * Only non-emptiness is checked here; whether the target exists is checked when the registry links definitions.
 */
export function referenceSchema(what: string) {
  return z
    .string()
    .trim()
    .min(1, { error: `${what} must not be empty` });
}

/** Result of `validateToolName`. */
export type ToolNameValidation = { valid: true } | { valid: false; error: string };

/**
 * Checks a tool name (a tool file's name, a prompt or agent exposed as a tool): it must be usable as an LLM function
 * name, so letters, digits, `_` and `-`, starting with a letter, at most 64 characters.
 */
export function validateToolName(name: string): ToolNameValidation {
  const r = identifierSchema("tool name", "word_count").safeParse(name);
  return r.success ? { valid: true } : { valid: false, error: r.error.issues[0]?.message ?? "invalid tool name" };
}
