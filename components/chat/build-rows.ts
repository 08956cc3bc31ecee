import type { AgentSummary, ChatMessage, PendingMessage, Side, StreamingReply, ToolRun } from "./types";

/** Who wrote a message, as the conversation labels it. */
export interface Author {
  label: string;
  kind: "human" | "agent" | "system" | "parent";
  side: Side | null;
}

export interface ToolCallView {
  id: string;
  name: string;
  kind: string;
  arguments: string;
  result: ChatMessage | null;
  run: ToolRun | undefined;
}

/** Child-agent activity: a subagent call, or a result/failure its child reported back. */
export interface ChildCardData {
  childId: string | null;
  /** The parent's subagent tool call, when the card shows one (the child is found by it before its result exists). */
  callId?: string | null;
  agent: string | null;
  event: "running" | "started" | "returned" | "failed" | "activity";
  text: string | null;
  arguments: string | null;
  silent: boolean;
  /** The registry status projected onto the message, when the runtime provides it. */
  status: string | null;
  /** A spawn waiting for scoped variables (`subagent_env_required`): the parent thread and the request to fulfil. */
  bootstrap?: { threadId: string; requestId: string; agent: string } | null;
}

export type Row =
  | { kind: "message"; key: string; message: ChatMessage; author: Author; toolCalls: ToolCallView[]; markdown: boolean }
  | { kind: "tool"; key: string; call: ToolCallView }
  | { kind: "handoff"; key: string; to: string; status: "pending" | "success" | "error"; error: string | null }
  | { kind: "child"; key: string; card: ChildCardData }
  | { kind: "streaming"; key: string; streaming: StreamingReply; author: Author }
  | { kind: "pending"; key: string; pending: PendingMessage; author: Author };

export interface RowContext {
  agents: ReadonlyMap<string, AgentSummary>;
  rootAgentId: string;
  toolKinds: Readonly<Record<string, string>>;
  toolRuns: Readonly<Record<string, ToolRun>>;
  showSilent: boolean;
}

const RESULT_RE =
  /^Subagent \(reference: ([^)]+)\) has (returned the following result|reported a failure):\n\n([\s\S]*)$/;
const REFERENCE_RE = /(?:^|\s)Reference: ([A-Za-z0-9-]{8,})\s*$/;

/** What authorship reads of a message (stored, streaming or pending). */
type Authored = Pick<ChatMessage, "role" | "metadata">;

const metaString = (m: Pick<ChatMessage, "metadata">, key: string) => {
  const v = m.metadata?.[key];
  return typeof v === "string" ? v : null;
};
const fromChat = (m: Authored) => m.metadata?.source === "chat";

export function agentTitle(agents: ReadonlyMap<string, AgentSummary>, name: string): string {
  return agents.get(name)?.title ?? name;
}

function sideLabel(agent: AgentSummary | undefined, side: Side): string {
  const s = side === "a" ? agent?.sides.a : agent?.sides.b;
  return s?.label || (side === "a" ? "Side A" : "Side B");
}

/** The author of a message: the active agent, a side of a dual_ai agent, the human, or the system. */
export function authorOf(m: Authored, ctx: RowContext, activeAgent: string): Author {
  const root = ctx.agents.get(ctx.rootAgentId);
  const dual = root?.type === "dual_ai";
  if (m.role === "system") return { label: "System", kind: "system", side: null };
  // A child thread's brief (and later messages its parent sends) are written by the parent agent, not by a side.
  if (m.role === "user" && metaString(m, "from_parent")) return { label: "Parent agent", kind: "parent", side: null };
  const side: Side = m.role === "assistant" ? "a" : "b";
  const model = metaString(m, "model");
  if (!dual) {
    if (side === "a" && (model || !fromChat(m)))
      return { label: agentTitle(ctx.agents, activeAgent), kind: "agent", side: "a" };
    return { label: "You", kind: "human", side: null };
  }
  const label = sideLabel(root, side);
  if (fromChat(m)) return { label: `You as ${label}`, kind: "human", side };
  return { label, kind: "agent", side };
}

function childFromMessage(m: ChatMessage): ChildCardData | null {
  const content = m.content ?? "";
  const match = RESULT_RE.exec(content);
  const subagentId = m.subagent_id ?? metaString(m, "subagent_id");
  if (!match && !subagentId) return null;
  return {
    childId: match?.[1] ?? subagentId,
    agent: m.subagent_name ?? null,
    event: match ? (match[2]!.startsWith("returned") ? "returned" : "failed") : "activity",
    text: match ? match[3]! : content,
    arguments: null,
    silent: Boolean(m.silent),
    status: m.subagent_status ?? null,
  };
}

function childFromCall(call: ToolCallView): ChildCardData {
  const r = call.result;
  const text = r?.content ?? null;
  const ref = text ? REFERENCE_RE.exec(text) : null;
  const childId = r?.subagent_id ?? ref?.[1] ?? null;
  const clean = text && ref ? text.slice(0, ref.index).trim() : text;
  const initiated = clean?.startsWith("The subagent was initiated successfully") ?? false;
  return {
    childId,
    callId: call.id,
    agent: call.name,
    event: !r ? "running" : r.tool_status === "error" ? "failed" : initiated ? "started" : "returned",
    text: initiated ? null : clean,
    arguments: call.arguments,
    silent: false,
    status: r?.subagent_status ?? null,
    bootstrap: r ? bootstrapOf(r) : null,
  };
}

function bootstrapOf(r: ChatMessage): ChildCardData["bootstrap"] {
  const m = r.metadata as { error_code?: unknown; error_data?: { request_id?: unknown; agent?: unknown } } | null | undefined;
  if (m?.error_code !== "subagent_env_required" || typeof m.error_data?.request_id !== "string" || !r.thread_id) return null;
  return { threadId: r.thread_id, requestId: m.error_data.request_id, agent: String(m.error_data.agent ?? "") };
}

/**
 * Turn the ordered messages into the rows the list renders: tool results fold into the call that asked for them;
 * handoffs become dividers; subagent calls and the results children report become child cards; silent messages
 * appear only when asked for.
 */
export function buildRows(messages: readonly ChatMessage[], ctx: RowContext): Row[] {
  const results = new Map<string, ChatMessage>();
  for (const m of messages) if (m.role === "tool" && m.tool_call_id) results.set(m.tool_call_id, m);
  const consumed = new Set<string>();
  const rows: Row[] = [];
  let agent = ctx.rootAgentId;
  for (const m of messages) {
    if (m.role === "tool") {
      if (m.tool_status === "success" && ctx.toolKinds[m.name ?? ""] === "handoff") agent = m.name ?? agent;
      if (m.tool_call_id && consumed.has(m.tool_call_id)) continue;
      if (m.silent && !ctx.showSilent) continue;
      const kind = ctx.toolKinds[m.name ?? ""] ?? "tool";
      rows.push({
        kind: "tool",
        key: m.id,
        call: {
          id: m.tool_call_id ?? m.id,
          name: m.name ?? "tool",
          kind,
          arguments: "",
          result: m,
          run: ctx.toolRuns[m.tool_call_id ?? ""],
        },
      });
      continue;
    }
    const child = m.role === "user" ? childFromMessage(m) : null;
    if (child) {
      rows.push({ kind: "child", key: m.id, card: child });
      continue;
    }
    if (m.silent && !ctx.showSilent) continue;
    const calls: ToolCallView[] = [];
    const after: Row[] = [];
    for (const c of m.tool_calls ?? []) {
      const result = results.get(c.id) ?? null;
      if (result && result.seq > m.seq) consumed.add(c.id);
      const view: ToolCallView = {
        id: c.id,
        name: c.function.name,
        kind: ctx.toolKinds[c.function.name] ?? "tool",
        arguments: c.function.arguments,
        result,
        run: ctx.toolRuns[c.id],
      };
      if (view.kind === "handoff") {
        after.push({
          kind: "handoff",
          key: `${m.id}:${c.id}`,
          to: view.name,
          status: !result ? "pending" : result.tool_status === "error" ? "error" : "success",
          error: result?.tool_status === "error" ? result.content : null,
        });
      } else if (view.kind === "subagent") {
        after.push({ kind: "child", key: `${m.id}:${c.id}`, card: childFromCall(view) });
      } else calls.push(view);
    }
    const hasBody =
      Boolean(m.content?.trim()) ||
      calls.length > 0 ||
      (m.attachments?.length ?? 0) > 0 ||
      Boolean(m.reasoning_content);
    if (hasBody) {
      const author = authorOf(m, ctx, agent);
      rows.push({
        kind: "message",
        key: m.id,
        message: m,
        author,
        toolCalls: calls,
        markdown: author.kind !== "human",
      });
    }
    rows.push(...after);
  }
  return rows;
}

/** The rows after the stored messages: the reply being streamed, then the user's messages not stored yet. */
export function tailRows(
  streaming: StreamingReply | null,
  pending: readonly PendingMessage[],
  ctx: RowContext,
  activeAgent: string,
): Row[] {
  const rows: Row[] = [];
  if (streaming) {
    const role = streaming.side === "a" ? "assistant" : "user";
    const author = authorOf({ role, metadata: { model: "streaming" } }, ctx, activeAgent);
    rows.push({ kind: "streaming", key: `stream:${streaming.stepId}`, streaming, author });
  }
  for (const p of pending) {
    rows.push({
      kind: "pending",
      key: p.id,
      pending: p,
      author: authorOf({ role: p.role, metadata: { source: "chat" } }, ctx, activeAgent),
    });
  }
  return rows;
}
