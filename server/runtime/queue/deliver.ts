import type { ParsedAgentDefinition } from "@/server/spec";
import { createMessage } from "../kernel/message-writer";
import type { QueuedMessageRecord, Side, Stores, ThreadRecord } from "../ports";
import { bareScope } from "../kernel/scope";
import type { RuntimeDeps } from "../kernel/deps";
import { startTurn } from "../kernel/turns";

/**
 * Deliver the thread's queued messages in FIFO order (design.md §4). Each becomes a message whose id is the queue
 * entry's id (through the message writer: hooks and events apply), marked delivered in the same transaction. While a
 * turn is executing they are injected before the next LLM step; when the thread is idle they start a turn: `user` →
 * side A acts, `assistant` → side B acts (dual_ai; in ai_human side B is the human, so an `assistant` message starts
 * nothing). Messages from outside are not turns of either side (`side` stays null). A call queued with
 * `state.queueTool` becomes an assistant tool call of the acting side; the executor runs it as a regular tool call.
 * `resetActivationSteps`: the activation begins, and its step count is reset in the same transaction (if anything is
 * delivered; the caller resets it otherwise). `pending`: the thread's pending entries, read by the caller together
 * with the thread (nothing written since).
 */
export async function deliverQueue(
  deps: RuntimeDeps,
  thread: ThreadRecord,
  agent: ParsedAgentDefinition | undefined,
  opts: { resetActivationSteps?: boolean; beforeWrite?: () => Promise<void>; pending?: QueuedMessageRecord[] } = {},
): Promise<ThreadRecord> {
  const pending = opts.pending ?? (await deps.persistence.queue.pending(thread.id));
  if (pending.length === 0) return thread;
  await opts.beforeWrite?.();
  const acting: Side = thread.state.turn?.side ?? "a";
  const reset = opts.resetActivationSteps === true;
  let firstSeq = 0;
  let lastSeq = 0;
  let lastRole: "user" | "assistant" = "user";
  let toolCall = false;
  let updated: ThreadRecord | null = null;
  for (const [i, q] of pending.entries()) {
    const call = queuedToolCall(q);
    const last = i === pending.length - 1;
    const msg = await createMessage(
      bareScope(deps, thread, acting),
      {
        id: q.id,
        role: call ? (acting === "a" ? "assistant" : "user") : q.role,
        content: call ? null : q.content,
        name: null,
        toolCalls: call ? [{ id: `call_${q.id}`, type: "function", function: call }] : null,
        toolCallId: null,
        toolStatus: null,
        reasoningContent: null,
        attachments: q.attachments,
        silent: q.silent,
        depth: 0,
        side: call ? acting : null,
        metadata: q.metadata,
        subagentId: typeof q.metadata?.subagent_id === "string" ? q.metadata.subagent_id : null,
      },
      async (tx, m, emit) => {
        // Not waited for before the turn starts: where the database pipelines them, both go in one round trip (in
        // this order, in this transaction; a failure of either fails it).
        const delivered = tx.queue.markDelivered(q.id, m.id);
        delivered.catch(() => {});
        await emit(thread.id, { type: "queue.delivered", queueId: q.id, messageId: m.id });
        // The last one starts the turn it opens in its own transaction.
        if (last) updated = await startDeliveredTurn(tx, thread, agent, acting, firstSeq || m.seq, m.seq, q.role, toolCall || !!call, reset);
        await delivered;
      },
    );
    firstSeq ||= msg.seq;
    lastSeq = msg.seq;
    lastRole = q.role;
    toolCall ||= !!call;
  }
  // A hook may have turned the last one into a message that was already there (nothing stored, no transaction body).
  return updated ?? deps.persistence.transaction((tx) => startDeliveredTurn(tx, thread, agent, acting, firstSeq, lastSeq, lastRole, toolCall, reset));
}

/**
 * When no turn is active, the delivered messages start one: see `deliverQueue`. `reset`: the activation starts here,
 * its step count from 0. Returns the thread as it now is.
 */
async function startDeliveredTurn(
  tx: Stores,
  thread: ThreadRecord,
  agent: ParsedAgentDefinition | undefined,
  acting: Side,
  firstSeq: number,
  lastSeq: number,
  lastRole: "user" | "assistant",
  toolCall: boolean,
  reset: boolean,
): Promise<ThreadRecord> {
  const fresh = (await tx.threads.get(thread.id)) ?? thread;
  let state = reset && fresh.state.activationSteps !== 0 ? { ...fresh.state, activationSteps: 0 } : fresh.state;
  if (!state.turn?.active) {
    if (toolCall) state = startTurn(state, acting, firstSeq - 1);
    else {
      const side: Side | null = lastRole === "user" ? "a" : agent?.type === "dual_ai" ? "b" : null;
      if (side) state = startTurn(state, side, lastSeq);
    }
  }
  return state === fresh.state ? fresh : tx.threads.update(thread.id, { state });
}

function queuedToolCall(q: QueuedMessageRecord): { name: string; arguments: string } | null {
  const c = q.metadata?.queued_tool_call as { name?: unknown; arguments?: unknown } | undefined;
  return c && typeof c.name === "string" ? { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : "{}" } : null;
}
