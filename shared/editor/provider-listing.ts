/**
 * What the model picker learns from the providers' own model lists (`GET /api/providers/:name/models`): which model
 * files name a model their provider offers (and its context size when the file does not say), and the models a
 * provider offers that no model file names yet (a pick adds one). Without a listing the model files stand alone.
 * Browser-safe.
 */
import type { ModelSummary } from "./model-catalog";

/** One model of a provider's list (the API's `ProviderModelInfo`). */
export interface ListedModel {
  id: string;
  name?: string;
  contextLength?: number;
}

/** A provider's list, or why there is none (no key, an endpoint without a listing, …). */
export type ProviderListing = { provider: string; models: ListedModel[] } | { provider: string; error: string };

export interface PickerModel extends ModelSummary {
  /** Whether the provider's list has the file's model id; undefined without a list. */
  listed?: boolean;
  /** The provider's display name of the model, when its list gives one. */
  displayName?: string;
}

/** The model files with what their provider's list says of them (context size from the list when the file has none). */
export function withListings(models: readonly ModelSummary[], listings: readonly ProviderListing[]): PickerModel[] {
  const byProvider = new Map(listings.map((l) => [l.provider, l]));
  return models.map((m) => {
    const listing = byProvider.get(m.provider);
    if (!listing || "error" in listing) return m;
    const hit = listing.models.find((x) => x.id === m.model);
    const out: PickerModel = { ...m, listed: hit !== undefined };
    if (hit?.name && hit.name !== hit.id) out.displayName = hit.name;
    if (out.context === undefined && hit?.contextLength !== undefined) out.context = hit.contextLength;
    return out;
  });
}

/** The models each provider lists that no model file names, by provider then id. */
export function unlistedModels(models: readonly ModelSummary[], listings: readonly ProviderListing[]): Array<ListedModel & { provider: string }> {
  const named = new Set(models.map((m) => `${m.provider}\u0000${m.model}`));
  const out: Array<ListedModel & { provider: string }> = [];
  for (const l of listings) {
    if ("error" in l) continue;
    for (const m of l.models) if (!named.has(`${l.provider}\u0000${m.id}`)) out.push({ ...m, provider: l.provider });
  }
  return out.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id));
}

/** A free definition name for a model file of provider model `id` (`gpt-4o` → `gpt_4o`, then `gpt_4o_2`, …). */
export function modelFileName(id: string, taken: ReadonlySet<string>): string {
  let base = id.replace(/^.*\//, "").replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  if (!/^[A-Za-z]/.test(base)) base = `m_${base}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  return name;
}
