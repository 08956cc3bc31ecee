import type { DetailMessage, NodeDetail } from "./types";

export type Direction = "from_parent" | "from_child" | null;

export interface TranscriptEntry {
  message: DetailMessage;
  /** Who wrote it, with the side labels of the agent (e.g. Writer / Reviewer). */
  author: string;
  side: "a" | "b" | null;
  direction: Direction;
  /** Tool results answering this message's tool calls, by call id. */
  results: Map<string, DetailMessage>;
}

/**
 * The conversation as the inspector shows it: tool results folded under their calls, every message labelled with
 * its author (the agent's side labels; stored `assistant` = side A, `user` = side B or a human) and the direction of
 * the messages exchanged with the parent (down: from the parent; up: reports from this thread's own children).
 */
export function transcript(detail: Pick<NodeDetail, "messages" | "agent">): TranscriptEntry[] {
  const results = new Map<string, DetailMessage>();
  for (const m of detail.messages) if (m.role === "tool" && m.tool_call_id) results.set(m.tool_call_id, m);
  const dual = detail.agent.type === "dual_ai";
  const out: TranscriptEntry[] = [];
  for (const m of detail.messages) {
    if (m.role === "tool" && m.tool_call_id && detail.messages.some((x) => x.tool_calls?.some((c) => c.id === m.tool_call_id))) continue;
    const meta = m.metadata;
    const direction: Direction = meta?.from_parent ? "from_parent" : m.subagent_id || meta?.subagent_id ? "from_child" : null;
    const side = m.side ?? (m.role === "assistant" ? "a" : dual && m.role === "user" && !direction ? "b" : null);
    let author: string;
    if (m.role === "system") author = "System";
    else if (m.role === "tool") author = `Tool ${m.name ?? ""}`.trim();
    else if (direction === "from_parent") author = "Parent";
    else if (direction === "from_child") author = "Subagent report";
    else if (side === "a") author = detail.agent.labels.a;
    else if (side === "b") author = detail.agent.labels.b;
    else author = "User";
    const mine = new Map<string, DetailMessage>();
    for (const c of m.tool_calls ?? []) {
      const r = results.get(c.id);
      if (r) mine.set(c.id, r);
    }
    out.push({ message: m, author, side, direction, results: mine });
  }
  return out;
}
