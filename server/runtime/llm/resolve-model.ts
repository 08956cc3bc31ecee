/**
 * Resolves a model definition and its `fallbacks` (in order, each model once, cycle-safe) into the endpoints, keys
 * and prices the client calls. `baseURL` defaults to the configured default (OPENAI_BASE_URL). The key is read through
 * the model's `apiKeyEnv` when it names one (never replaced by the default key, so one provider's key is not sent to
 * another), else the default key (OPENAI_API_KEY). A model without a key is still called: keyless local servers
 * answer, others answer 401 and the failure says which variable to set.
 */
import { BUILTIN_PROVIDER_ENV } from "./providers/builtin";
import type { ResolvedModel } from "./types";

/** The fields of a model definition the client needs (structurally a `ParsedModelDefinition`). */
export interface ModelDefinitionLike {
  name: string;
  provider: string;
  model: string;
  baseURL?: string;
  apiKeyEnv?: string;
  fallbacks?: readonly string[];
  inputPrice?: number;
  outputPrice?: number;
  cachedPrice?: number;
  providerOptions?: Record<string, unknown>;
  capabilities?: { maxOutputTokens?: number; vision?: boolean };
}

export interface ModelDefaults {
  baseURL?: string;
  apiKey?: string;
}

/** The variable the default key comes from. */
export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";

/** A model the prompt names is not defined. */
export class ModelNotDefinedError extends Error {
  readonly code = "DEFINITION_ERROR";
  constructor(readonly modelName: string) {
    super(
      `Model "${modelName}" is not defined: add agents/models/${modelName}.ts (defineModel({ name: "${modelName}", ` +
        `provider: "openai", model: "<provider model id>" })), fix the errors in that file, or change the prompt's \`model\`.`,
    );
    this.name = "ModelNotDefinedError";
  }
}

const present = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== "" ? value.trim() : undefined;

/**
 * The chain `[name, ...fallbacks]` resolved breadth-first: fallbacks of fallbacks come after the primary's own list.
 * Throws `ModelNotDefinedError` when `name` itself is unknown; an unknown fallback is skipped (the registry reports it).
 */
export function resolveModelChain(
  modelDefs: ReadonlyMap<string, ModelDefinitionLike>,
  name: string,
  env: (name: string) => string | undefined,
  defaults: ModelDefaults = {},
): ResolvedModel[] {
  if (!modelDefs.has(name)) throw new ModelNotDefinedError(name);
  const chain: ResolvedModel[] = [];
  const seen = new Set<string>();
  const queue = [name];
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const def = modelDefs.get(next);
    if (!def) continue;
    chain.push(resolveModel(def, env, defaults));
    queue.push(...(def.fallbacks ?? []));
  }
  return chain;
}

/** One definition resolved: endpoint, key (possibly absent) and prices. */
export function resolveModel(
  def: ModelDefinitionLike,
  env: (name: string) => string | undefined,
  defaults: ModelDefaults = {},
): ResolvedModel {
  const apiKey = def.apiKeyEnv ? present(env(def.apiKeyEnv)) : present(defaults.apiKey);
  const baseURL = present(def.baseURL) ?? present(defaults.baseURL);
  return {
    name: def.name,
    provider: def.provider,
    model: def.model,
    ...(baseURL !== undefined ? { baseURL } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    apiKeyEnv: def.apiKeyEnv ?? BUILTIN_PROVIDER_ENV[def.provider]?.apiKey ?? DEFAULT_API_KEY_ENV,
    ...(def.inputPrice !== undefined ? { inputPrice: def.inputPrice } : {}),
    ...(def.outputPrice !== undefined ? { outputPrice: def.outputPrice } : {}),
    ...(def.cachedPrice !== undefined ? { cachedPrice: def.cachedPrice } : {}),
    ...(def.providerOptions !== undefined ? { providerOptions: def.providerOptions } : {}),
    ...(def.capabilities?.maxOutputTokens !== undefined ? { maxOutputTokens: def.capabilities.maxOutputTokens } : {}),
    ...(def.capabilities?.vision === false ? { vision: false } : {}),
  };
}
