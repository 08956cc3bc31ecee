/**
 * Failure texts a user reads: the hint appended to an attempt's error (which file and field to fix), and the message
 * of the `LlmTransportError` raised when every model failed, naming each model with its last error.
 */
import { BUILTIN_PROVIDER_ENV } from "./providers/builtin";
import type { ClassifiedError } from "./retry";
import type { ResolvedModel } from "./types";

export interface ModelFailure {
  model: ResolvedModel;
  /** The last attempt's error text. */
  error: string;
  attempts: number;
}

const modelFile = (model: ResolvedModel) => `agents/models/${model.name}.ts`;

/** How to fix a failure that retrying cannot; empty when there is nothing specific to say. */
export function failureHint(failure: ClassifiedError, model: ResolvedModel, keyMissing: boolean): string {
  const keyVar = model.apiKeyEnv ?? "OPENAI_API_KEY";
  if (failure.status === 401 || failure.status === 403) {
    return keyMissing
      ? `no API key is set for model "${model.name}": set ${keyVar}, or name another variable in \`apiKeyEnv\` of ${modelFile(model)}`
      : `check the API key in ${keyVar}, or name another variable in \`apiKeyEnv\` of ${modelFile(model)}`;
  }
  if (failure.status === 404) {
    return `check \`model: "${model.model}"\` and \`baseURL\` in ${modelFile(model)}`;
  }
  if (failure.status === null && failure.message.startsWith("connection error")) {
    const where = model.baseURL ?? "the default endpoint";
    const baseVar = BUILTIN_PROVIDER_ENV[model.provider]?.baseURL;
    return `is ${where} reachable? Check \`baseURL\` in ${modelFile(model)}${baseVar ? `, or ${baseVar}` : ""}`;
  }
  return "";
}

/** `careful (gpt-4.1): 500 Internal Server Error after 4 attempts`. */
export function describeFailure(failure: ModelFailure): string {
  const times = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : "";
  return `${failure.model.name} (${failure.model.model}): ${failure.error}${times}`;
}

/** `All models failed: careful (gpt-4.1): … after 4 attempts; fast (gpt-4.1-mini): 401 …`. */
export function allModelsFailedMessage(failures: readonly ModelFailure[]): string {
  if (failures.length === 0)
    return "No model to call: the request names no model (set `model` in the prompt definition).";
  return `All models failed: ${failures.map(describeFailure).join("; ")}`;
}
