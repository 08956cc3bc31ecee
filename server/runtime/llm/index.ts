/** The LLM client: the port's types, the client over the provider interface, the built-in providers and helpers. */
export * from "./types";
export {
  createLlmClient,
  createOpenAiClient,
  defaultSleep,
  PLACEHOLDER_API_KEY,
  ModelListingUnsupportedError,
  UnknownProviderError,
  type LlmClientOptions,
  type OpenAiClientOptions,
  type Sleep,
} from "./llm-client";
export { BUILTIN_PROVIDERS, BUILTIN_PROVIDER_ENV, isBuiltinProvider, usesOpenAiEndpoint } from "./providers/builtin";
export { isAbortError, LlmAbortError } from "./errors";
export { resolveModelChain, resolveModel, ModelNotDefinedError, DEFAULT_API_KEY_ENV } from "./resolve-model";
export type { ModelDefinitionLike, ModelDefaults } from "./resolve-model";
export { computeCost, type ModelPrices } from "./cost";
export { backoffDelay, classifyError, isRetryableStatus, parseRetryAfter } from "./retry";
export { modelListTarget, type ModelDefinitionEndpoint } from "./model-list-target";
