import type { AgentDefinition } from "./agent";
import type { ModelDefinition } from "./model";
import type { PromptDefinition } from "./prompt";
import type { AnyZodObject } from "./zod-like";

/**
 * Defines an agent. Returns its input unchanged (a plain object of the same shape is equivalent); the literal
 * `name` is kept in the type.
 */
export function defineAgent<N extends string>(definition: AgentDefinition<N>): AgentDefinition<N> {
  return definition;
}

/**
 * Defines a prompt. Returns its input unchanged; the literal `name` and the `requiredSchema` type are kept.
 */
export function definePrompt<N extends string, S extends AnyZodObject = AnyZodObject>(
  definition: PromptDefinition<N, S>,
): PromptDefinition<N, S> {
  return definition;
}

/** Defines a model. Returns its input unchanged; the literal `name` is kept. */
export function defineModel<N extends string>(definition: ModelDefinition<N>): ModelDefinition<N> {
  return definition;
}
