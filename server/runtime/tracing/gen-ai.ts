/**
 * The OpenTelemetry GenAI semantic conventions this runtime records (gen_ai.* attributes, span names). Copied from
 * the conventions' registry instead of imported from `@opentelemetry/semantic-conventions/incubating`, as that
 * package asks of unstable attributes: the names are pinned here and change only with a deliberate edit.
 */
export const GEN_AI = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  responseId: "gen_ai.response.id",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
} as const;

/** Attributes of this project's own (not GenAI) under `studio.*`. */
export const STUDIO = {
  threadId: "studio.thread.id",
  parentThreadId: "studio.thread.parent_id",
  attempt: "studio.llm.attempt",
  modelDefinition: "studio.model.definition",
  cachedTokens: "studio.usage.cached_tokens",
  cost: "studio.usage.cost_usd",
  ttftMs: "studio.llm.ttft_ms",
  toolKind: "studio.tool.kind",
  toolStatus: "studio.tool.status",
  stopReason: "studio.thread.stop_reason",
} as const;

/** The provider names of the conventions (`gen_ai.provider.name`) for ours; others pass through as they are. */
export function providerName(provider: string): string {
  switch (provider) {
    case "openai":
    case "openai-responses":
      return "openai";
    case "anthropic":
      return "anthropic";
    case "google":
      return "gcp.gemini";
    default:
      return provider;
  }
}
