"use client";

import { useQueries } from "@tanstack/react-query";
import type { ListedModel, ProviderListing } from "@/shared/editor/provider-listing";

/** `GET /api/providers/:name/models`, as a listing or the reason there is none (never throws). */
async function fetchListing(provider: string): Promise<ProviderListing> {
  try {
    const res = await fetch(`/api/providers/${encodeURIComponent(provider)}/models`);
    const body = (await res.json().catch(() => null)) as { models?: ListedModel[]; error?: { message?: string } } | null;
    if (!res.ok || !body?.models) return { provider, error: body?.error?.message ?? `the provider's list answered ${res.status}` };
    return { provider, models: body.models };
  } catch (error) {
    return { provider, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The model lists of `providers` as they arrive (asked once per provider and kept for five minutes). */
export function useProviderListings(providers: readonly string[]): { listings: ProviderListing[]; loading: string[] } {
  const results = useQueries({
    queries: providers.map((provider) => ({ queryKey: ["provider-models", provider], queryFn: () => fetchListing(provider), staleTime: 5 * 60_000, retry: false })),
  });
  return {
    listings: results.flatMap((r) => (r.data ? [r.data] : [])),
    loading: providers.filter((_, i) => results[i]?.isPending),
  };
}
