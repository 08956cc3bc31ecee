import type { LlmMessage, Message } from "@/server/spec";
import type { ChatMessage } from "../llm/types";
import { toSpecMessage } from "./to-spec";
import type { MessageRecord } from "../ports";
import { hasHook, runHooks, type HookContext } from "./hook-runner";

const acceptList = (out: unknown): unknown[] | undefined => {
  if (!Array.isArray(out)) throw new Error("the hook must return an array of messages");
  return out;
};

/**
 * `filter_messages`: hooks see the stored history (spec `Message` shape) before context assembly and return the
 * history to use. Returned messages are matched back to stored ones by id (their edits kept); new messages a hook adds
 * (e.g. a synthetic clock tool call) take the acting side and sit where the hook placed them.
 */
export async function filterHistory(hc: HookContext | null, history: MessageRecord[], side: "a" | "b"): Promise<MessageRecord[]> {
  if (!hasHook(hc, "filter_messages")) return history;
  const byId = new Map(history.map((m) => [m.id, m]));
  const out = (await runHooks(hc, "filter_messages", history.map((m) => toSpecMessage(m)) as unknown[], (exec, st, v) => Promise.resolve(exec(st, v as Message[])), acceptList)) as Message[];
  const result: MessageRecord[] = [];
  let seq = 0;
  for (const m of out) {
    const base = byId.get(m.id);
    seq = base ? base.seq : seq + 0.001;
    result.push({
      ...(base ?? { id: m.id, threadId: "", depth: 0, subagentId: null, createdAt: m.created_at, side: m.role === "assistant" || m.role === "tool" ? side : null }),
      seq,
      role: m.role,
      content: m.content,
      name: m.name ?? null,
      toolCalls: m.tool_calls ?? null,
      toolCallId: m.tool_call_id ?? null,
      toolStatus: m.tool_status ?? null,
      reasoningContent: m.reasoning_content ?? null,
      attachments: base?.attachments ?? null,
      silent: m.silent ?? false,
      metadata: (m.metadata as Record<string, unknown> | null | undefined) ?? null,
    } as MessageRecord);
  }
  return result;
}

/** `prefilter_llm_history`: final adjustments of the messages sent to the model; tool pairs are repaired after. */
export async function prefilterLlm(hc: HookContext | null, messages: ChatMessage[]): Promise<ChatMessage[]> {
  if (!hasHook(hc, "prefilter_llm_history")) return messages;
  const out = (await runHooks(hc, "prefilter_llm_history", messages as unknown[], (exec, st, v) => Promise.resolve(exec(st, v as LlmMessage[])), acceptList)) as ChatMessage[];
  return repairToolPairs(out);
}

/**
 * Keep every tool call with its results (skill guide: separated pairs break many models): a tool message must follow
 * the assistant message that made its call, and every call needs a result; orphans on either side are dropped.
 */
export function repairToolPairs(messages: ChatMessage[]): ChatMessage[] {
  const results = new Map<string, ChatMessage>();
  for (const m of messages) if (m.role === "tool") results.set(m.tool_call_id, m);
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === "tool") continue;
    if (m.role === "assistant" && m.tool_calls?.length) {
      const kept = m.tool_calls.filter((c) => results.has(c.id));
      if (kept.length === 0 && !m.content) continue;
      out.push(kept.length > 0 ? { ...m, tool_calls: kept } : { role: "assistant", content: m.content });
      for (const c of kept) out.push(results.get(c.id)!);
      continue;
    }
    out.push(m);
  }
  return out;
}
