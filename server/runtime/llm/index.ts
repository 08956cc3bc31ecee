/** The LLM client: the port's types, the OpenAI-compatible implementation and its helpers. */
export * from "./types";
export {
  createOpenAiClient,
  defaultSleep,
  PLACEHOLDER_API_KEY,
  type OpenAiClientOptions,
  type Sleep,
} from "./openai-client";
export { isAbortError, LlmAbortError } from "./errors";
export { resolveModelChain, resolveModel, ModelNotDefinedError, DEFAULT_API_KEY_ENV } from "./resolve-model";
export type { ModelDefinitionLike, ModelDefaults } from "./resolve-model";
export { computeCost, type ModelPrices } from "./cost";
export { backoffDelay, classifyError, isRetryableStatus, parseRetryAfter } from "./retry";
