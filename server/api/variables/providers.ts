import type { App } from "../app-context";

const DEFAULT_KEY = "OPENAI_API_KEY";

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
 * A model's key comes from its `apiKeyEnv` (resolved like any variable, then the process environment), else
 * OPENAI_API_KEY.
 */
export async function listProviders(app: App, processEnv: (name: string) => string | undefined = (n) => process.env[n]): Promise<ProviderView[]> {
  const snap = app.registry.current();
  const instance = new Set((await app.persistence.env.list("instance", "instance")).map((r) => r.name));
  const rows = new Map<string, ProviderView>();
  const defaultBase = app.config.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
  for (const m of snap.models.values()) {
    const def = m.definition;
    const keyVar = def.apiKeyEnv ?? DEFAULT_KEY;
    const base = def.baseURL ?? defaultBase;
    const id = `${def.provider}|${base}|${keyVar}`;
    let row = rows.get(id);
    if (!row) {
      const fromProcess = keyVar === DEFAULT_KEY ? Boolean(app.config.OPENAI_API_KEY) : Boolean(processEnv(keyVar));
      // Only a named `apiKeyEnv` is looked up among the variables; the default key comes from the process alone.
      const status = fromProcess ? "configured" : def.apiKeyEnv && instance.has(keyVar) ? "instance variable" : "not configured";
      rows.set(id, (row = { provider: def.provider, base_url: base, key_variable: keyVar, key_status: status, models: [] }));
    }
    row.models.push(m.name);
  }
  return [...rows.values()].sort((a, b) => a.base_url.localeCompare(b.base_url) || a.key_variable.localeCompare(b.key_variable));
}
