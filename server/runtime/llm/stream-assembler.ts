/**
 * Assembles a streamed Chat Completions answer from its chunks: text, reasoning (`delta.reasoning_content` or
 * `delta.reasoning`), tool calls joined by `index` from argument fragments (passed on verbatim, even when they are not
 * valid JSON), the finish reason and the usage of the final chunk.
 */
import type { LlmUsage } from "./types";

export interface AssembledToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What one chunk added, for live deltas and time-to-first-token. */
export interface ChunkDelta {
  content?: string;
  reasoning?: string;
  /** The chunk carried a tool-call fragment. */
  toolCall: boolean;
  /** The chunk's tool-call fragments, each with the index of the call it belongs to. */
  fragments?: { index: number; id?: string; name?: string; arguments?: string }[];
}

type Json = Record<string, unknown>;

const asRecord = (value: unknown): Json | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const asCount = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;

/** Token counts of a Chat Completions `usage` object (cached tokens from `prompt_tokens_details` or DeepSeek's field). */
export function usageFromWire(usage: unknown): LlmUsage {
  const u = asRecord(usage);
  if (!u) return { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  const details = asRecord(u.prompt_tokens_details);
  return {
    inputTokens: asCount(u.prompt_tokens),
    outputTokens: asCount(u.completion_tokens),
    cachedTokens: asCount(details?.cached_tokens ?? u.prompt_cache_hit_tokens),
  };
}

export class StreamAssembler {
  private text = "";
  private sawText = false;
  private thinking = "";
  private readonly calls: { index: number; id: string | undefined; name: string; arguments: string }[] = [];
  /** Chunks received so far. */
  chunks = 0;
  finishReason: string | null = null;
  /** The provider's `usage` object as received, or null. */
  rawUsage: Json | null = null;

  /** Adds one chunk; returns what it contributed. */
  add(chunk: unknown): ChunkDelta {
    this.chunks++;
    const out: ChunkDelta = { toolCall: false };
    const c = asRecord(chunk);
    if (!c) return out;
    const usage = asRecord(c.usage);
    if (usage) this.rawUsage = usage;
    const choices = Array.isArray(c.choices) ? c.choices : [];
    const choice = asRecord(choices.find((ch) => (asRecord(ch)?.index ?? 0) === 0));
    if (!choice) return out;
    const finish = asString(choice.finish_reason);
    if (finish) this.finishReason = finish;
    const delta = asRecord(choice.delta);
    if (!delta) return out;

    const content = asString(delta.content);
    if (content !== undefined) {
      this.sawText = true;
      if (content !== "") {
        this.text += content;
        out.content = content;
      }
    }
    const reasoning = asString(delta.reasoning_content) ?? asString(delta.reasoning);
    if (reasoning) {
      this.thinking += reasoning;
      out.reasoning = reasoning;
    }
    const toolCalls = Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
    for (const raw of toolCalls) {
      const fragment = asRecord(raw);
      if (fragment) {
        (out.fragments ??= []).push(this.addToolFragment(fragment));
        out.toolCall = true;
      }
    }
    return out;
  }

  private addToolFragment(fragment: Json): { index: number; id?: string; name?: string; arguments?: string } {
    const id = asString(fragment.id) || undefined;
    const fn = asRecord(fragment.function);
    const index = typeof fragment.index === "number" ? fragment.index : this.indexWithoutIndexField(id);
    let call = this.calls.find((existing) => existing.index === index);
    if (!call) {
      call = { index, id: undefined, name: "", arguments: "" };
      this.calls.push(call);
    }
    call.id ??= id;
    const name = asString(fn?.name);
    // The name arrives whole in the call's first fragment; later fragments that repeat it are ignored.
    if (name && call.name === "") call.name = name;
    const args = asString(fn?.arguments);
    if (args) call.arguments += args;
    return { index, ...(id !== undefined ? { id } : {}), ...(name ? { name } : {}), ...(args ? { arguments: args } : {}) };
  }

  /** Servers that omit `index` send each call whole with its id, or continue the last call without one. */
  private indexWithoutIndexField(id: string | undefined): number {
    const known = id === undefined ? undefined : this.calls.find((c) => c.id === id);
    if (known) return known.index;
    const last = this.calls[this.calls.length - 1];
    if (id === undefined && last) return last.index;
    return this.calls.reduce((max, c) => Math.max(max, c.index + 1), 0);
  }

  get content(): string | null {
    return this.sawText || this.text !== "" ? this.text : null;
  }

  get reasoning(): string | null {
    return this.thinking === "" ? null : this.thinking;
  }

  get usage(): LlmUsage {
    return usageFromWire(this.rawUsage);
  }

  /** Tool calls in index order; a call without an id gets `call_<index>`. */
  get toolCalls(): AssembledToolCall[] {
    return [...this.calls]
      .sort((a, b) => a.index - b.index)
      .map((c) => ({ id: c.id ?? `call_${c.index}`, name: c.name, arguments: c.arguments }));
  }
}
