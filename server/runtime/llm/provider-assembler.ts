/**
 * Assembles a provider's streamed answer (`ProviderStreamChunk`s) into a `ProviderResponse`: text, reasoning text,
 * reasoning blocks, tool calls (whole, or joined by `index` from fragments, arguments passed on verbatim), the finish
 * reason and usage of the `finish` chunk.
 */
import type { ProviderGeneratedImage, ProviderToolActivity, ProviderReasoningDetail, ProviderStreamChunk, ProviderToolCallPart, ProviderWebSearchResult } from "@/server/spec";
import type { LlmUsage } from "./types";

/** What one chunk added, for live deltas and time-to-first-token. */
export interface ChunkDelta {
  content?: string;
  reasoning?: string;
  /** The chunk carried a tool call or a fragment of one. */
  toolCall: boolean;
}

const NO_USAGE: LlmUsage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };

export class ProviderAssembler {
  private text = "";
  private sawText = false;
  private thinking = "";
  private readonly calls: { index: number; id: string | undefined; name: string; arguments: string }[] = [];
  readonly reasoningDetails: ProviderReasoningDetail[] = [];
  /** Web search results, each URL once, in the order first seen. */
  readonly webSearchResults: ProviderWebSearchResult[] = [];
  readonly images: ProviderGeneratedImage[] = [];
  readonly providerToolCalls: ProviderToolActivity[] = [];
  /** Chunks received so far. */
  chunks = 0;
  finishReason: string | null = null;
  usage: LlmUsage = NO_USAGE;
  /** The provider's usage as it reported it (the request log keeps it), or null. */
  rawUsage: Record<string, unknown> | null = null;

  add(chunk: ProviderStreamChunk): ChunkDelta {
    this.chunks++;
    switch (chunk.type) {
      case "content-delta":
        this.sawText = true;
        if (chunk.delta === "") return { toolCall: false };
        this.text += chunk.delta;
        return { content: chunk.delta, toolCall: false };
      case "reasoning-delta":
        if (chunk.delta === "") return { toolCall: false };
        this.thinking += chunk.delta;
        return { reasoning: chunk.delta, toolCall: false };
      case "reasoning-detail":
        this.reasoningDetails.push(chunk.detail);
        return { toolCall: false };
      case "tool-call":
        this.calls.push({ index: this.nextIndex(), id: chunk.id, name: chunk.name, arguments: chunk.arguments });
        return { toolCall: true };
      case "tool-call-delta":
        this.addFragment(chunk);
        return { toolCall: true };
      case "web-search-results":
        for (const r of chunk.results) if (!this.webSearchResults.some((x) => x.url === r.url)) this.webSearchResults.push(r);
        return { toolCall: false };
      case "provider-tool": {
        // Chunks with one id (a call, then its result) make one entry.
        const same = chunk.activity.id !== undefined ? this.providerToolCalls.find((a) => a.id === chunk.activity.id) : undefined;
        if (same) Object.assign(same, chunk.activity);
        else this.providerToolCalls.push({ ...chunk.activity });
        return { toolCall: false };
      }
      case "image":
        this.images.push(chunk.image);
        return { toolCall: false };
      case "finish":
        this.finishReason = chunk.finishReason;
        if (chunk.usage) this.usage = chunk.usage;
        this.rawUsage = chunk.raw ?? (chunk.usage ? { ...chunk.usage } : null);
        return { toolCall: false };
      default:
        return { toolCall: false };
    }
  }

  private nextIndex(): number {
    return this.calls.reduce((max, c) => Math.max(max, c.index + 1), 0);
  }

  private addFragment(f: { index: number; id?: string; name?: string; argumentsDelta?: string }): void {
    let call = this.calls.find((c) => c.index === f.index);
    if (!call) {
      call = { index: f.index, id: undefined, name: "", arguments: "" };
      this.calls.push(call);
    }
    call.id ??= f.id || undefined;
    // The name arrives whole in the call's first fragment; later fragments that repeat it are ignored.
    if (f.name && call.name === "") call.name = f.name;
    if (f.argumentsDelta) call.arguments += f.argumentsDelta;
  }

  get content(): string | null {
    return this.sawText || this.text !== "" ? this.text : null;
  }

  get reasoning(): string | null {
    return this.thinking === "" ? null : this.thinking;
  }

  /** Tool calls in index order; a call without an id gets `call_<index>`. */
  get toolCalls(): ProviderToolCallPart[] {
    return [...this.calls]
      .sort((a, b) => a.index - b.index)
      .map((c) => ({ id: c.id ?? `call_${c.index}`, name: c.name, arguments: c.arguments }));
  }
}
