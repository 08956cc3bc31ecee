import type { ParsedModelDefinition } from "@/server/spec";
import { DefinitionError } from "../errors";
import { newId } from "../ids";
import { resolveModel } from "../llm/resolve-model";
import { BUILTIN_PROVIDER_ENV, usesOpenAiEndpoint } from "../llm/providers/builtin";
import type { RuntimeEvent } from "@/shared/runtime-events";
import type { ChatMessage, ChatTool, LlmAttempt, LlmResult, ResolvedModel } from "../llm/types";
import type { Emit } from "../events/publisher";
import type { MessageRecord, ThreadRecord } from "../ports";
import type { RuntimeDeps } from "../kernel/deps";
import { filterHistory, prefilterLlm } from "../kernel/history-hooks";
import { hookContext } from "../kernel/scope";
import { chatToolFor } from "../kernel/tool-schemas";
import { perspectiveMessages } from "./perspective";
import type { StepContext } from "../kernel/step-context";
import { attemptLogger, closingPendingLogs, pendingLogger, SentLogs, type DeferredAttempt } from "./request-log";
import { renderSystemPrompt } from "./system-prompt";
import { recordLlmAttempt } from "../tracing";

export interface StepRequest {
  stepId: string;
  messages: ChatMessage[];
  tools: ChatTool[];
}

/** Build the request of one LLM step of the side: system prompt, the side's perspective of history, offered tools. */
export async function buildStepRequest(
  deps: RuntimeDeps,
  ctx: StepContext,
  thread: ThreadRecord,
  history: MessageRecord[],
  extraSystem: string[] = [],
  offered?: ChatTool[],
  /** The activation's signal, for the hooks that shape the request (a never-aborted one when absent). */
  signal?: AbortSignal,
): Promise<StepRequest> {
  const system = await renderSystemPrompt(ctx.defs, ctx.prompt.name, (n) => ctx.lookupEnv(n));
  const turn = thread.state.turn;
  const hc = hookContext({ deps, thread, side: ctx.side, signal: signal ?? new AbortController().signal, stepId: "", ctx });
  const filtered = await filterHistory(hc, history, ctx.side);
  const convo = await perspectiveMessages(filtered, {
    side: ctx.side,
    includeChat: ctx.prompt.includeChat,
    includePastTools: ctx.prompt.includePastTools,
    lastTurnEndSeq: thread.state.lastTurnEndSeq[ctx.side],
    turnStartSeq: turn?.startSeq ?? 0,
    recentImageThreshold: ctx.prompt.recentImageThreshold,
    loadImage: async (path, mime) => {
      const data = await deps.persistence.files.read(thread.id, path);
      if (!data) return null;
      return `data:${mime ?? "image/png"};base64,${Buffer.from(data).toString("base64")}`;
    },
  });
  const tools: ChatTool[] = offered ?? [];
  if (!offered) {
    for (const entry of ctx.defs.promptTools(ctx.prompt.name)) {
      const t = chatToolFor(ctx.defs, entry);
      if (t) tools.push(t);
    }
  }
  const assembled: ChatMessage[] = [{ role: "system", content: system }];
  for (const s of extraSystem) assembled.push({ role: "system", content: s });
  assembled.push(...convo);
  const messages = await prefilterLlm(hc, assembled);
  return { stepId: newId(), messages, tools };
}

/**
 * The thread variable that runs every prompt of the thread (and of the subagents that inherit it) on another model
 * definition: an experiment's `--model`. A name no model file defines is ignored.
 */
export const MODEL_OVERRIDE_VARIABLE = "STUDIO_MODEL_OVERRIDE";

/** The prompt's model (or the thread's model override) and its fallbacks, resolved to endpoints, keys and prices. */
export async function resolveModels(deps: RuntimeDeps, ctx: StepContext, modelName: string): Promise<ResolvedModel[]> {
  const chain: ResolvedModel[] = [];
  const seen = new Set<string>();
  const override = (await ctx.lookupEnv(MODEL_OVERRIDE_VARIABLE))?.value?.trim();
  const queue = [override && ctx.defs.model(override) ? override : modelName];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const def: ParsedModelDefinition | undefined = ctx.defs.model(name);
    if (!def) {
      if (chain.length === 0) throw new DefinitionError(`Model "${name}" is not defined (agents/models/${name}.ts), or its file has errors`);
      continue;
    }
    // The key variable: thread/user/instance/definition env first, then the process environment.
    const lookup = async (variable: string) => (await ctx.lookupEnv(variable))?.value ?? deps.settings.processEnv?.(variable);
    const keyFromEnv = def.apiKeyEnv ? await lookup(def.apiKeyEnv) : undefined;
    // A built-in provider other than openai has its own key and base URL (ANTHROPIC_API_KEY, …): a thread or user
    // variable of that name first, then the setting.
    const own = !usesOpenAiEndpoint(def.provider) ? BUILTIN_PROVIDER_ENV[def.provider] : undefined;
    const configured = deps.settings.providerDefaults?.[def.provider];
    const defaults = own
      ? { baseURL: configured?.baseURL, apiKey: def.apiKeyEnv ? undefined : ((await ctx.lookupEnv(own.apiKey))?.value ?? configured?.apiKey) }
      : { baseURL: deps.settings.defaultBaseURL, apiKey: deps.settings.defaultApiKey };
    chain.push(resolveModel(def, () => keyFromEnv, defaults));
    queue.push(...(def.fallbacks ?? []));
  }
  return chain;
}

/** Call the model for one step, streaming deltas live and logging every attempt. */
export async function callModel(
  deps: RuntimeDeps,
  ctx: StepContext,
  thread: ThreadRecord,
  req: StepRequest,
  step: number,
  signal: AbortSignal,
  lead?: LeadEvent,
  deferred?: DeferredAttempt,
  /** A write that overlaps the wait for the model (`LlmCallOptions.whileInFlight`); settled before any other. */
  whileInFlight?: () => Promise<void>,
  /** Start `whileInFlight` only with the held announcement (`LlmCallOptions.holdWhileInFlight`). */
  holdWhileInFlight = false,
): Promise<LlmResult> {
  const models = await resolveModels(deps, ctx, ctx.prompt.model);
  const hasTools = req.tools.length > 0;
  const logAttempt = attemptLogger(deps, ctx, thread.id, req.stepId, step, deferred);
  // The first request's log row is sent with it, not before it (request-log.ts, `SentLogs`): stored by the time the
  // attempt's outcome is written, and before the call returns.
  const sent = new SentLogs();
  const overlapped = async () => {
    await Promise.all([sent.settled(), whileInFlight?.()]);
  };
  return closingPendingLogs(deps, thread.id, async () => {
    const result = await deps.llm.complete(
      {
        models,
        messages: req.messages,
        tools: hasTools ? req.tools : undefined,
        toolChoice: hasTools ? ctx.prompt.toolChoice : undefined,
        parallelToolCalls: hasTools ? ctx.prompt.parallelToolCalls : undefined,
        reasoning: ctx.prompt.reasoning,
        ...(ctx.prompt.providerTools?.length ? { providerTools: ctx.prompt.providerTools } : {}),
        providerOptions: ctx.prompt.providerOptions,
      },
      {
        signal,
        onDelta: (d) =>
          deps.events.live(thread.id, { type: "token.delta", stepId: req.stepId, side: ctx.side, content: d.content, reasoning: d.reasoning }),
        beforeSend: pendingLogger(deps, ctx, thread.id, step, sent),
        onAttemptStart: requestAnnouncer(deps, thread.id, req.stepId, step, req.messages.length, req.tools.length, lead),
        onAttempt: async (a) => {
          recordLlmAttempt(thread.id, a);
          await sent.settled();
          return logAttempt(a);
        },
        // The client settles it before either of the two above (LlmCallOptions.whileInFlight).
        whileInFlight: overlapped,
        // A step's successful attempt is written with its assistant message: an answer that comes that soon takes its
        // announcement along (`heldAnnouncement`).
        ...(deferred ? { announceAfterMs: deps.settings.announceAfterMs ?? ANNOUNCE_AFTER_MS, holdWhileInFlight } : {}),
      },
    );
    await sent.settled();
    return result;
  }, sent);
}

/**
 * An event that must precede the first `llm.request` of a call (a step's `step.started`): it is written in the same
 * transaction as that request. `done` turns true once it is stored; if no attempt starts, the caller emits it itself.
 */
export interface LeadEvent {
  event: RuntimeEvent;
  done: boolean;
}

/**
 * How long a step's request may be in flight before it is announced on its own (ms; `STEP_ANNOUNCE_AFTER_MS`). A model
 * that answers sooner without streaming text (a tool call from a fast model) has its `step.started` and `llm.request`
 * written in the assistant message's transaction, just before its `llm.response`, and with them the previous step's
 * carried tool result (thread/carry.ts): the same events in the same order, two transactions fewer. Clients see a
 * slower model's step start at most this late, and its carried result is stored then.
 */
export const ANNOUNCE_AFTER_MS = 20;

/** The `llm.request` event of an attempt: model, step and sizes only (no messages, keys or endpoints). */
function requestEvent(
  stepId: string,
  step: number | null,
  messageCount: number,
  toolCount: number,
  { model, attempt }: { model: ResolvedModel; attempt: number },
): RuntimeEvent {
  return { type: "llm.request", stepId, model: model.name, modelId: model.model, provider: model.provider, attempt, step, messageCount, toolCount };
}

/** Announce each attempt as an `llm.request` event, after the lead event if that is still due. */
export function requestAnnouncer(
  deps: RuntimeDeps,
  threadId: string,
  stepId: string,
  step: number | null,
  messageCount: number,
  toolCount: number,
  lead?: LeadEvent,
) {
  return async (start: { model: ResolvedModel; attempt: number }): Promise<void> => {
    const request = requestEvent(stepId, step, messageCount, toolCount, start);
    if (lead && !lead.done) {
      await deps.events.commit(async (_tx, emit) => {
        await emit(threadId, lead.event);
        await emit(threadId, request);
      });
      lead.done = true;
      return;
    }
    await deps.events.emit(threadId, request);
  };
}

/**
 * The announcement a successful attempt still owes (`LlmAttempt.announced` false), emitted in the caller's
 * transaction before the attempt's log: the lead event if due, then the `llm.request`.
 */
export async function heldAnnouncement(
  emit: Emit,
  threadId: string,
  at: { stepId: string; step: number | null; messageCount: number; toolCount: number },
  a: LlmAttempt,
  lead?: LeadEvent,
): Promise<void> {
  if (a.announced !== false) return;
  if (lead && !lead.done) {
    await emit(threadId, lead.event);
    lead.done = true;
  }
  await emit(threadId, requestEvent(at.stepId, at.step, at.messageCount, at.toolCount, a));
}
