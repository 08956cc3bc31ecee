/**
 * The built-in providers by name. A model definition's `provider` names one of these or a custom provider from
 * `agents/providers/`. Each has its own key variable and base URL override (`BUILTIN_PROVIDER_ENV`), read by the
 * composition root's environment lookup, never by the runtime.
 */
import type { ProviderFactory } from "@/server/spec";
import { toAnthropicBody } from "./anthropic-body";
import { toGoogleParams } from "./google-body";
import { lazyProvider } from "./lazy-provider";
import { createOpenAiProvider } from "./openai";
import { createOpenAiResponsesProvider } from "./openai-responses";

export const BUILTIN_PROVIDERS: Readonly<Record<string, ProviderFactory>> = Object.freeze({
  openai: createOpenAiProvider,
  "openai-responses": createOpenAiResponsesProvider,
  anthropic: lazyProvider("anthropic", async () => (await import("./anthropic")).createAnthropicProvider, toAnthropicBody),
  google: lazyProvider("google", async () => (await import("./google")).createGoogleProvider, (request) => toGoogleParams(request) as unknown as Record<string, unknown>),
});

/** The variables each built-in provider reads its key and endpoint from, unless the model names its own. */
export const BUILTIN_PROVIDER_ENV: Readonly<Record<string, { apiKey: string; baseURL: string }>> = Object.freeze({
  openai: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
  "openai-responses": { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
  anthropic: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL" },
  google: { apiKey: "GEMINI_API_KEY", baseURL: "GEMINI_BASE_URL" },
});

/** Providers on the OpenAI endpoint and key (OPENAI_BASE_URL, OPENAI_API_KEY): the default endpoint and key apply. */
export const usesOpenAiEndpoint = (provider: string): boolean => provider === "openai" || provider === "openai-responses";

export const isBuiltinProvider = (name: string): boolean => Object.hasOwn(BUILTIN_PROVIDERS, name);
