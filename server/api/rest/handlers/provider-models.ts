/**
 * `GET /api/providers/:name/models[?model=<model definition>]`: the models a provider's endpoint offers
 * (`ProviderModelInfo`: id, name, context length), from its own listing. Without `model` the provider's default
 * endpoint and key are used (OPENAI_*, ANTHROPIC_*, GEMINI_*); with it, that model definition's `baseURL` and
 * `apiKeyEnv`. An unknown provider or model is a 404, a model of another provider a 400, a provider without a listing
 * a 501, a failing endpoint a 502 naming the cause, no answer within 20 s a 504. The key is never returned.
 */
import { BUILTIN_PROVIDER_ENV, isBuiltinProvider, isAbortError, modelListTarget, type ModelDefinitionEndpoint } from "@/server/runtime/llm";
import type { App } from "../../app-context";
import { ApiError } from "../../errors";
import type { RouteContext } from "../router";

type Ctx = RouteContext<App>;

const LIST_TIMEOUT_MS = 20_000;

export async function providerModelsHandler({ app, params, url }: Ctx): Promise<Response> {
  const name = params.name!;
  const snap = app.registry.current();
  if (!isBuiltinProvider(name) && !snap.providers.has(name)) {
    const known = [...Object.keys(BUILTIN_PROVIDER_ENV), ...snap.providers.keys()].join(", ");
    throw new ApiError(404, "NOT_FOUND", `provider "${name}" is neither built in nor defined in agents/providers/ (known: ${known})`);
  }
  const config = app.config as unknown as Record<string, string | undefined>;
  const env = (variable: string) => config[variable] || app.runtime.deps.settings.processEnv?.(variable) || process.env[variable];
  const modelName = url.searchParams.get("model");
  let def: ModelDefinitionEndpoint | undefined;
  if (modelName !== null) {
    def = snap.models.get(modelName)?.definition;
    if (!def) throw new ApiError(404, "NOT_FOUND", `model "${modelName}" is not defined (agents/models/${modelName}.ts), or its file has errors`);
    if (def.provider !== name) {
      throw new ApiError(400, "BAD_REQUEST", `model "${modelName}" uses provider "${def.provider}", not "${name}": ask /api/providers/${def.provider}/models`, [{ path: "model", message: "belongs to another provider" }]);
    }
  }
  const target = modelListTarget(name, def, env);
  const llm = app.runtime.deps.llm;
  if (!llm.listModels) throw new ApiError(501, "NOT_SUPPORTED", "this runtime's model client does not list models");
  try {
    const models = await llm.listModels(target, AbortSignal.timeout(LIST_TIMEOUT_MS));
    return Response.json({ provider: name, models });
  } catch (err) {
    if (isAbortError(err) || (err instanceof Error && err.name === "LlmAbortError")) {
      throw new ApiError(504, "PROVIDER_TIMEOUT", `provider "${name}" did not list its models within ${LIST_TIMEOUT_MS / 1000} s`);
    }
    throw err;
  }
}
