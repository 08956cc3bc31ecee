import { z } from "zod";
import { envNameSchema, modelNameSchema, referenceSchema } from "./names";
import { optionsRecordSchema } from "./shared-fields";

const price = (field: string) =>
  z
    .number({ error: `${field} must be a number (USD per million tokens)` })
    .nonnegative({ error: `${field} must be 0 or more (USD per million tokens)` });

/** What a model can do (loose: extra keys are kept). */
export const modelCapabilitiesSchema = z.looseObject({
  vision: z.boolean().optional(),
  tools: z.boolean().optional(),
  streaming: z.boolean().optional(),
  reasoning: z.boolean().optional(),
  json: z.boolean().optional(),
  maxContextTokens: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
});
/** Model capabilities. */
export type ModelCapabilities = z.output<typeof modelCapabilitiesSchema>;

/**
 * A model definition. `provider: 'openai'` means any OpenAI-compatible Chat Completions endpoint; `baseURL` and the
 * key default to `OPENAI_BASE_URL` / `OPENAI_API_KEY`. `model` is sent verbatim.
 */
export const modelDefinitionSchema = z.object({
  /** Model name used by prompts, named for the use case (e.g. `fast`, `careful`). */
  name: modelNameSchema,
  /** Provider id; `openai` = any OpenAI-compatible endpoint. */
  provider: z
    .string({
      error: (i) => (i.input === undefined ? "required: add `provider: 'openai'`" : "provider must be a string"),
    })
    .trim()
    .min(1, { error: "provider must not be empty: use 'openai' for any OpenAI-compatible endpoint" }),
  /** Model id sent to the provider verbatim (e.g. `gpt-4.1-mini`). */
  model: z.string().trim().min(1, { error: "model must not be empty: give the provider's model id" }),
  /** Endpoint base URL (defaults to `OPENAI_BASE_URL`). */
  baseURL: z
    .url({ protocol: /^https?$/, error: "baseURL must be an http(s) URL such as 'http://127.0.0.1:8080/v1'" })
    .optional(),
  /** Name of the env/variable holding the API key (defaults to `OPENAI_API_KEY`). */
  apiKeyEnv: envNameSchema.optional(),
  /** Model names tried in order when this one fails. */
  fallbacks: z.array(referenceSchema("fallback model")).optional(),
  /** USD per million input tokens. */
  inputPrice: price("inputPrice").optional(),
  /** USD per million output tokens. */
  outputPrice: price("outputPrice").optional(),
  /** USD per million cached input tokens. */
  cachedPrice: price("cachedPrice").optional(),
  /** What the model supports. */
  capabilities: modelCapabilitiesSchema.optional(),
  /** Provider-specific request options (defaults; prompts override them). */
  providerOptions: optionsRecordSchema.optional(),
});

/** A model definition as written; `N` keeps the literal name. */
export type ModelDefinition<N extends string = string> = Omit<z.input<typeof modelDefinitionSchema>, "name"> & {
  name: N;
};
/** A parsed model definition. */
export type ParsedModelDefinition = z.output<typeof modelDefinitionSchema>;
