/**
 * What the model picker shows for each model file: provider and model id, prices, context size and capabilities, and
 * a search over all of it. Read from the model documents as written (the files are the catalog). Browser-safe.
 */
import { isDocObject, type DocObject } from "./doc";

export interface ModelSummary {
  name: string;
  provider: string;
  model: string;
  /** USD per million input / output tokens, when the file says. */
  inputPrice?: number;
  outputPrice?: number;
  /** Context window in tokens, when the file says. */
  context?: number;
  /** The capabilities set to true, in a fixed order. */
  capabilities: string[];
}

const CAPABILITIES = ["tools", "vision", "streaming", "reasoning", "json"] as const;
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export function modelSummary(name: string, value: DocObject | null): ModelSummary {
  const v = value ?? {};
  const caps = isDocObject(v.capabilities) ? v.capabilities : {};
  const out: ModelSummary = {
    name,
    provider: typeof v.provider === "string" ? v.provider : "?",
    model: typeof v.model === "string" ? v.model : "?",
    capabilities: CAPABILITIES.filter((c) => caps[c] === true),
  };
  const input = num(v.inputPrice);
  const output = num(v.outputPrice);
  const context = num(caps.maxContextTokens);
  if (input !== undefined) out.inputPrice = input;
  if (output !== undefined) out.outputPrice = output;
  if (context !== undefined) out.context = context;
  return out;
}

const tokens = (n: number) => (n >= 1_000_000 ? `${Math.round(n / 100_000) / 10}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

/** One line of facts: `openai · gpt-4.1-mini · $0.4 / $1.6 per M · 128k context · tools, vision`. */
export function describeModel(m: ModelSummary): string {
  const parts = [m.provider, m.model];
  if (m.inputPrice !== undefined || m.outputPrice !== undefined) parts.push(`$${m.inputPrice ?? "?"} / $${m.outputPrice ?? "?"} per M tokens`);
  else parts.push("no price");
  if (m.context !== undefined) parts.push(`${tokens(m.context)} context`);
  parts.push(m.capabilities.length > 0 ? m.capabilities.join(", ") : "no capabilities listed");
  return parts.join(" · ");
}

/** The models whose name or facts contain every word of `query` (case-insensitive), sorted by name. */
export function searchModels(models: readonly ModelSummary[], query: string): ModelSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return models.filter((m) => words.every((w) => `${m.name} ${describeModel(m)}`.toLowerCase().includes(w))).sort((a, b) => a.name.localeCompare(b.name));
}
