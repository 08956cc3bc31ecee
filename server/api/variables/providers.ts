import { BUILTIN_PROVIDER_ENV } from "@/server/runtime/llm";
import type { App } from "../app-context";

const DEFAULT_KEY = "OPENAI_API_KEY";
/** Where each built-in provider's requests go when no variable or model says otherwise. */
const DEFAULT_BASE: Record<string, string> = {
  openai: "https://api.openai.com/v1",
  "openai-responses": "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  google: "https://generativelanguage.googleapis.com",
};

export interface ProviderView {
  /** `openai` (any OpenAI-compatible endpoint) and the endpoint's base URL. */
  provider: string;
  base_url: string;
  /** The variable that holds the key. */
  key_variable: string;
  /** Where the key is set (never the key): the process environment, an instance variable, or nowhere. */
  key_status: "configured" | "instance variable" | "not configured";
  models: string[];
}

/**
 * The model providers the definitions use: one row per endpoint and key variable, with whether its key is set.
 * A model's key comes from its `apiKeyEnv` (resolved like any variable, then the process environment), else its
 * built-in provider's variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY).
 */
export async function listProviders(app: App, processEnv: (name: string) => string | undefined = (n) => process.env[n]): Promise<ProviderView[]> {
  const snap = app.registry.current();
  const instance = new Set((await app.persistence.env.list("instance", "instance")).map((r) => r.name));
  const rows = new Map<string, ProviderView>();
  const config = app.config as unknown as Record<string, string | undefined>;
  for (const m of snap.models.values()) {
    const def = m.definition;
    // A built-in provider's own variables (ANTHROPIC_*, GEMINI_*; OPENAI_* for both OpenAI providers).
    const own = BUILTIN_PROVIDER_ENV[def.provider];
    const keyVar = def.apiKeyEnv ?? own?.apiKey ?? DEFAULT_KEY;
    const base = def.baseURL ?? (own ? config[own.baseURL] || DEFAULT_BASE[def.provider] || "" : "(set by the provider)");
    const id = `${def.provider}|${base}|${keyVar}`;
    let row = rows.get(id);
    if (!row) {
      const fromProcess = !def.apiKeyEnv && own ? Boolean(config[own.apiKey]) : keyVar === DEFAULT_KEY ? Boolean(app.config.OPENAI_API_KEY) : Boolean(processEnv(keyVar));
      // Only a named `apiKeyEnv` is looked up among the variables; the default key comes from the process alone.
      const status = fromProcess ? "configured" : def.apiKeyEnv && instance.has(keyVar) ? "instance variable" : "not configured";
      rows.set(id, (row = { provider: def.provider, base_url: base, key_variable: keyVar, key_status: status, models: [] }));
    }
    row.models.push(m.name);
  }
  return [...rows.values()].sort((a, b) => a.base_url.localeCompare(b.base_url) || a.key_variable.localeCompare(b.key_variable));
}
