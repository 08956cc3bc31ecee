import type { LlmCallOptions, LlmClient, LlmRequest, LlmResult } from "../llm/types";

export interface ScriptedReply {
  content?: string | null;
  toolCalls?: { name: string; args?: Record<string, unknown>; rawArguments?: string; id?: string }[];
  /** Wait before answering (honours the abort signal). */
  delayMs?: number;
  /** Throw this instead of answering. */
  error?: Error;
}

export type ScriptStep = ScriptedReply | ((req: LlmRequest) => ScriptedReply);

/**
 * A strict scripted `LlmClient` for unit tests: each call consumes the next scripted reply; a call with no reply left
 * fails the test. Every request is kept for assertions.
 */
export class ScriptedLlm implements LlmClient {
  readonly requests: LlmRequest[] = [];
  private readonly steps: ScriptStep[];

  constructor(steps: ScriptStep[] = []) {
    this.steps = [...steps];
  }

  push(...steps: ScriptStep[]): void {
    this.steps.push(...steps);
  }

  get remaining(): number {
    return this.steps.length;
  }

  async complete(req: LlmRequest, opts: LlmCallOptions = {}): Promise<LlmResult> {
    this.requests.push(structuredClone(req));
    await opts.whileInFlight?.();
    await opts.onAttemptStart?.({ model: req.models[0]!, attempt: 1 });
    const step = this.steps.shift();
    if (!step) throw new Error(`ScriptedLlm: unexpected LLM call #${this.requests.length} (no scripted reply left)`);
    const reply = typeof step === "function" ? step(req) : step;
    if (reply.delayMs) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, reply.delayMs);
        opts.signal?.addEventListener("abort", () => {
          clearTimeout(t);
          reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
        }, { once: true });
      });
    }
    if (opts.signal?.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
    if (reply.error) throw reply.error;
    if (reply.content) opts.onDelta?.({ content: reply.content, attempt: 1 });
    const model = req.models[0]!;
    return {
      content: reply.content ?? null,
      reasoning: null,
      reasoningDetails: [],
      webSearchResults: [],
      images: [],
      providerToolCalls: [],
      toolCalls: (reply.toolCalls ?? []).map((c, i) => ({
        id: c.id ?? `call_${this.requests.length}_${i}`,
        name: c.name,
        arguments: c.rawArguments ?? JSON.stringify(c.args ?? {}),
      })),
      finishReason: reply.toolCalls?.length ? "tool_calls" : "stop",
      usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0 },
      model,
      attempts: [],
    };
  }
}
