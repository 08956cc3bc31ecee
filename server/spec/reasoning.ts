import type { ReasoningConfig } from "./prompt";

/**
 * Maps a prompt's `reasoning` config to the fields of an OpenAI-compatible Chat Completions request:
 * - `effort` → `reasoning_effort` (the standard field: OpenAI, vLLM, OpenRouter, …);
 * - `maxTokens`, `exclude`, `include` or any provider-specific key → a `reasoning` object in OpenRouter's unified
 *   shape: `max_tokens` (a token budget replaces the effort level, so `reasoning_effort` is then left out), else
 *   `effort`; `exclude: true` keeps reasoning out of the response (`include: false` means the same; an explicit
 *   `exclude` wins); other keys are passed as written.
 * An effort-only config sends `reasoning_effort` alone, since some endpoints reject a `reasoning` object.
 */
export function mapReasoningLevel(reasoning: ReasoningConfig | undefined): Record<string, unknown> {
  if (!reasoning) return {};
  const { effort, maxTokens, exclude, include, ...vendor } = reasoning;
  const out: Record<string, unknown> = {};
  if (effort !== undefined && maxTokens === undefined) out.reasoning_effort = effort;
  const excluded = exclude ?? (include === undefined ? undefined : !include);
  const needsObject = maxTokens !== undefined || excluded !== undefined || Object.keys(vendor).length > 0;
  if (needsObject) {
    out.reasoning = {
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : effort !== undefined ? { effort } : {}),
      ...(excluded !== undefined ? { exclude: excluded } : {}),
      ...vendor,
    };
  }
  return out;
}
