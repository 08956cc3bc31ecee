/**
 * Replay: send a logged model request again, as it was or with an edited body, to the same or to another model, and
 * answer the old and the new response side by side. Nothing of the thread changes: no message, no event, no request
 * log row (the answer is the record). Keys and base URLs are resolved as the thread's own step would (thread, user and
 * instance variables), and the response is redacted of the thread's secrets like any stored answer.
 */
import { redactDeep } from "../env/redact";
import { NotFoundError, ValidationError } from "../errors";
import { loadStepContext } from "../kernel/step-context";
import type { RuntimeDeps } from "../kernel/deps";
import { computeCost } from "../llm/cost";
import { isAbortError } from "../llm/errors";
import { requestFromLog } from "../llm/request-from-log";
import { LlmTransportError, type LlmResult } from "../llm/types";
import type { LlmLogRecord, ThreadRecord } from "../ports";
import { resolveModels } from "../side-loop/llm-step";

export interface ReplayInput {
  /** A model definition's name; the logged request's model when absent. */
  model?: string;
  /** An edited request body (the shape the request log shows); the logged request when absent. */
  body?: Record<string, unknown>;
}

/** One side of the comparison. */
export interface ReplayAnswer {
  model: string;
  provider: string;
  modelId: string;
  status: string;
  error: string | null;
  content: string | null;
  reasoning: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null;
  usage: { inputTokens: number; outputTokens: number; cachedTokens: number };
  cost: number;
  latencyMs: number | null;
}

export interface ReplayResult {
  logId: string;
  edited: boolean;
  original: ReplayAnswer;
  replay: ReplayAnswer;
}

export async function replayRequest(deps: RuntimeDeps, thread: ThreadRecord, logId: string, input: ReplayInput, signal?: AbortSignal): Promise<ReplayResult> {
  const log = await deps.persistence.llmLogs.get(logId);
  if (!log || log.threadId !== thread.id) throw new NotFoundError(`Request log ${logId} not found in thread ${thread.id}`);
  const ctx = await loadStepContext(deps, thread, log.side ?? "a");
  const modelName = input.model ?? log.modelName;
  if (!ctx.defs.model(modelName)) {
    throw new ValidationError(`model: "${modelName}" is not a model definition (agents/models/); pick one of: ${ctx.defs.modelNames().join(", ")}`, { path: ["model"] });
  }
  // The one model asked for: its fallbacks would blur the comparison.
  const [model] = await resolveModels(deps, ctx, modelName);
  const call = requestFromLog(input.body ?? log.request);
  // Sampling and provider settings belong to the provider that logged them.
  if (model!.provider !== log.provider) delete call.providerOptions;
  const started = performance.now();
  let replay: ReplayAnswer;
  try {
    const result = await deps.llm.complete({ ...call, models: [model!] }, { ...(signal ? { signal } : {}) });
    replay = answerOf(result, performance.now() - started);
  } catch (err) {
    if (isAbortError(err)) throw err;
    const attempts = err instanceof LlmTransportError ? err.attempts : [];
    replay = {
      ...emptyAnswer(model!.name, model!.provider, model!.model),
      status: "error",
      error: err instanceof Error ? err.message : String(err),
      latencyMs: Math.round(performance.now() - started),
      cost: attempts.reduce((sum, a) => sum + a.cost, 0),
    };
  }
  return {
    logId,
    edited: input.body !== undefined,
    original: originalOf(log),
    replay: redactDeep(replay, ctx.secrets),
  };
}

function answerOf(result: LlmResult, latencyMs: number): ReplayAnswer {
  return {
    model: result.model.name,
    provider: result.model.provider,
    modelId: result.model.model,
    status: "success",
    error: null,
    content: result.content,
    reasoning: result.reasoning,
    toolCalls: result.toolCalls,
    finishReason: result.finishReason,
    usage: result.usage,
    cost: computeCost(result.usage, result.model),
    latencyMs: Math.round(latencyMs),
  };
}

const emptyAnswer = (model: string, provider: string, modelId: string): ReplayAnswer => ({
  model,
  provider,
  modelId,
  status: "success",
  error: null,
  content: null,
  reasoning: null,
  toolCalls: [],
  finishReason: null,
  usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
  cost: 0,
  latencyMs: null,
});

/** The logged answer in the same shape (the response column holds the assembled message). */
function originalOf(log: LlmLogRecord): ReplayAnswer {
  const r = (log.response ?? {}) as { content?: string | null; reasoning?: string; finish_reason?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
  return {
    ...emptyAnswer(log.modelName, log.provider, log.modelId),
    status: log.status,
    error: log.error,
    content: r.content ?? null,
    reasoning: r.reasoning ?? null,
    toolCalls: (r.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
    finishReason: r.finish_reason ?? null,
    usage: { inputTokens: log.inputTokens, outputTokens: log.outputTokens, cachedTokens: log.cachedTokens },
    cost: log.cost,
    latencyMs: log.latencyMs,
  };
}
