/**
 * Whose models to list (`GET /api/providers/:name/models`, `studio models`): a provider with its default endpoint and
 * key (OPENAI_*, ANTHROPIC_*, GEMINI_*), or one model definition's `baseURL` and `apiKeyEnv`. `env` reads a variable
 * by name; the key read never leaves the target.
 */
import { BUILTIN_PROVIDER_ENV } from "./providers/builtin";
import type { ModelListTarget } from "./types";

export interface ModelDefinitionEndpoint {
  name: string;
  provider: string;
  baseURL?: string;
  apiKeyEnv?: string;
}

export function modelListTarget(provider: string, def: ModelDefinitionEndpoint | undefined, env: (name: string) => string | undefined): ModelListTarget {
  const target: ModelListTarget = { name: def?.name ?? provider, provider };
  const own = BUILTIN_PROVIDER_ENV[provider];
  const baseURL = def?.baseURL || (own ? env(own.baseURL) : undefined);
  if (baseURL) target.baseURL = baseURL;
  const keyVar = def?.apiKeyEnv ?? own?.apiKey;
  if (keyVar) {
    target.apiKeyEnv = keyVar;
    const key = env(keyVar)?.trim();
    if (key) target.apiKey = key;
  }
  return target;
}
