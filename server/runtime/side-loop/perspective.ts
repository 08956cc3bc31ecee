import type { ProviderReasoningDetail } from "@/server/spec";
import type { ChatContentPart, ChatMessage } from "../llm/types";
import type { MessageRecord, Side } from "../ports";

export interface PerspectiveOptions {
  side: Side;
  /** Whole history (true) or only what arrived since this side's previous turn ended (false). */
  includeChat: boolean;
  /** Keep tool calls and results from before the current turn. */
  includePastTools: boolean;
  /** Seq at which this side's previous turn ended. */
  lastTurnEndSeq: number;
  /** Last seq before the current turn began: later messages belong to the turn. */
  turnStartSeq: number;
  /** How many most recent messages keep their images. */
  recentImageThreshold: number;
  /** Turns an image attachment into a data URL, or null when it cannot be read. */
  loadImage?: (path: string, mimeType: string | undefined) => Promise<string | null>;
}

/**
 * The conversation as one side sees it (design.md §4): stored roles are authorship (`assistant` = side A, `user` =
 * side B or the human). Each side sees its own messages as `assistant` and the other side's as `user`, without the
 * other side's tool calls and tool messages. Tool calls and their results always travel together: a call without a
 * stored result is left out, and results follow their call directly.
 */
export async function perspectiveMessages(all: MessageRecord[], opts: PerspectiveOptions): Promise<ChatMessage[]> {
  const visible = opts.includeChat ? all : all.filter((m) => m.seq > opts.lastTurnEndSeq);
  const results = new Map<string, MessageRecord>();
  for (const m of visible) if (m.role === "tool" && m.toolCallId && m.side === opts.side) results.set(m.toolCallId, m);

  const out: { msg: ChatMessage; record: MessageRecord }[] = [];
  for (const m of visible) {
    if (m.role === "tool") continue; // emitted right after their call below
    if (m.role === "system") {
      if (m.content) out.push({ msg: { role: "system", content: m.content }, record: m });
      continue;
    }
    const own = authorSide(m) === opts.side;
    if (own) {
      const past = m.seq <= opts.turnStartSeq;
      const keepTools = opts.includePastTools || !past;
      const calls = keepTools ? (m.toolCalls ?? []).filter((c) => results.has(c.id)) : [];
      if (!m.content && calls.length === 0) continue;
      const msg: ChatMessage = { role: "assistant", content: m.content ?? null };
      if (calls.length > 0) msg.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { ...c.function } }));
      const details = m.metadata?.reasoning_details;
      // The provider's reasoning blocks go back with the message (providers that need them send them; others drop them).
      if (Array.isArray(details) && details.length > 0) msg.reasoning_details = details as ProviderReasoningDetail[];
      out.push({ msg, record: m });
      for (const c of calls) {
        const r = results.get(c.id)!;
        out.push({ msg: { role: "tool", tool_call_id: c.id, content: r.content ?? "" }, record: r });
      }
    } else {
      if (!m.content && !(m.attachments && m.attachments.length > 0)) continue;
      out.push({ msg: { role: "user", content: m.content ?? "" }, record: m });
    }
  }
  return withImages(out, opts);
}

/** Which side authored a stored message: assistant → a, user → b (or the human), tool → its side. */
export function authorSide(m: Pick<MessageRecord, "role" | "side">): Side {
  if (m.side) return m.side;
  return m.role === "assistant" ? "a" : "b";
}

const isImage = (mime: string | undefined, path: string) =>
  (mime ?? "").startsWith("image/") || /\.(png|jpe?g|gif|webp)$/i.test(path);

async function withImages(items: { msg: ChatMessage; record: MessageRecord }[], opts: PerspectiveOptions): Promise<ChatMessage[]> {
  const threshold = Math.max(0, opts.recentImageThreshold);
  const firstRecent = items.length - threshold;
  const result: ChatMessage[] = [];
  for (let i = 0; i < items.length; i++) {
    const { msg, record } = items[i]!;
    const attachments = record.attachments ?? [];
    if (msg.role !== "user" || attachments.length === 0) {
      result.push(msg);
      continue;
    }
    const parts: ChatContentPart[] = [];
    const text = typeof msg.content === "string" ? msg.content : "";
    if (text) parts.push({ type: "text", text });
    for (const a of attachments) {
      const image = isImage(a.mimeType, a.path);
      const url = image && i >= firstRecent && opts.loadImage ? await opts.loadImage(a.path, a.mimeType) : null;
      if (url) parts.push({ type: "image_url", image_url: { url }, name: a.path });
      else parts.push({ type: "text", text: image ? `[image attachment: ${a.path}]` : `[attachment: ${a.path}]` });
    }
    result.push({ role: "user", content: parts.every((p) => p.type === "text") ? parts.map((p) => (p as { text: string }).text).join("\n") : parts });
  }
  return result;
}
