import { NotFoundError, ValidationError } from "../errors";
import type { RuntimeDeps } from "../kernel/deps";
import { initialThreadState } from "../kernel/initial-state";
import { startTurn } from "../kernel/turns";
import type { ForkOrigin, MessageRecord, Side, ThreadRecord } from "../ports";

export interface ForkInput {
  messageId: string;
  /** Replace the content of the message at the fork point. */
  edit?: { content: string };
  /**
   * Regenerate the reply `messageId` (an assistant message): fork at the message before it (a tool result's caller, so
   * the results come along) and let the fork answer again. The reply stays in the origin, unchanged.
   */
  regenerate?: boolean;
  /** The caller (the fork belongs to them; null in local mode). */
  userId: string | null;
}

/** The tag every fork carries, naming its origin. */
export const forkedFromTag = (threadId: string) => `forked-from:${threadId}`;

/**
 * Fork a thread at one of its messages: a new thread of the same agent, with the origin's env and tags (plus
 * `forked-from:<origin>`), holding a copy of the history up to that message (an assistant message keeps the results
 * of its tool calls), optionally with that message's content replaced. It starts when its last message calls for a
 * reply. The origin's children of that history are referred to (read-only), never copied, run or changed: the fork
 * never touches the original thread or its tree.
 */
export async function forkThread(deps: RuntimeDeps, sourceId: string, input: ForkInput): Promise<ThreadRecord> {
  const p = deps.persistence;
  const source = await p.threads.get(sourceId);
  if (!source) throw new NotFoundError(`Thread ${sourceId} not found`);
  const history = await p.messages.list(sourceId, { includeSilent: true });
  const named = history.find((m) => m.id === input.messageId);
  if (!named) {
    throw new ValidationError(`messageId: no message ${input.messageId} in thread ${sourceId}`, [{ path: "messageId", message: "not a message of this thread" }]);
  }
  const at = input.regenerate ? regenerationPoint(history, named, input.edit !== undefined) : named;
  if (input.edit && at.role !== "user" && at.role !== "assistant") {
    throw new ValidationError(`edit: only a user or assistant message can be edited (this one is a ${at.role} message)`, [
      { path: "edit", message: `a ${at.role} message cannot be edited` },
    ]);
  }
  const callIds = new Set((at.toolCalls ?? []).map((c) => c.id));
  const copied = history.filter((m) => m.seq <= at.seq || (m.role === "tool" && m.toolCallId !== null && callIds.has(m.toolCallId)));
  const agent = deps.definitions().agent(source.agentId);
  const children = await referencedChildren(deps, source, copied);
  const env = await p.env.list("thread", sourceId);
  const origin: ForkOrigin = {
    fromThreadId: sourceId,
    fromMessageId: at.id,
    edited: input.edit !== undefined,
    ...(input.regenerate ? { regeneratedMessageId: named.id } : {}),
    children,
  };
  const fork = await deps.events.commit(async (tx, emit) => {
    const created = await tx.threads.create({
      agentId: source.agentId,
      userId: input.userId ?? source.userId,
      tags: [...source.tags.filter((t) => !t.startsWith("forked-from:")), forkedFromTag(sourceId)],
      // A fork of a draft thread runs the same draft.
      state: { ...initialThreadState(), fork: origin, ...(source.state.draft ? { draft: source.state.draft } : {}) },
      status: "idle",
    });
    // Stored values are copied as stored (secrets stay encrypted with the same key).
    for (const v of env) await tx.env.set("thread", created.id, v.name, v.type, v.value);
    let last: MessageRecord | null = null;
    let callerSeq = 0;
    for (const m of copied) {
      const edited = m.id === at.id && input.edit ? { content: input.edit.content, metadata: { ...m.metadata, edited_from: m.content } } : {};
      last = await tx.messages.append(created.id, {
        role: m.role,
        content: m.content,
        name: m.name,
        toolCalls: m.toolCalls,
        toolCallId: m.toolCallId,
        toolStatus: m.toolStatus,
        reasoningContent: m.reasoningContent,
        attachments: m.attachments,
        silent: m.silent,
        depth: m.depth,
        side: m.side,
        metadata: { ...m.metadata, forked_from_message: m.id },
        subagentId: m.subagentId,
        createdAt: m.createdAt,
        ...edited,
      });
      if (m.id === at.id) callerSeq = last.seq;
    }
    const side = replySide(last, agent?.type === "dual_ai");
    // Ending in tool results, the turn holds the step that made the calls (its tools are done: the model answers them).
    const startSeq = last?.role === "tool" ? callerSeq - 1 : (last?.seq ?? 0);
    const thread = side && last ? await tx.threads.update(created.id, { status: "running", state: startTurn(created.state, side, startSeq) }) : created;
    await emit(thread.id, { type: "thread.status", status: thread.status, stopReason: null });
    return thread;
  });
  await copyFiles(deps, sourceId, fork.id);
  if (fork.status === "running") await deps.schedule(fork.id);
  return fork;
}

/**
 * Where a regeneration of `reply` forks: the message before it; when that is a tool result, the assistant message that
 * made the call (a fork at a caller carries its results, and the model answers them).
 */
function regenerationPoint(history: MessageRecord[], reply: MessageRecord, edit: boolean): MessageRecord {
  const fail = (message: string) => new ValidationError(`regenerate: ${message}`, [{ path: "regenerate", message }]);
  if (edit) throw fail("regenerate and edit cannot be combined (edit a message to re-run it, or regenerate a reply)");
  if (reply.role !== "assistant") throw fail(`only an assistant reply can be regenerated (this one is a ${reply.role} message)`);
  const before = history.filter((m) => m.seq < reply.seq).at(-1);
  if (!before) throw fail("the reply has no message before it to answer again");
  if (before.role !== "tool" || before.toolCallId === null) return before;
  const caller = history.find((m) => m.seq < before.seq && (m.toolCalls ?? []).some((c) => c.id === before.toolCallId));
  return caller ?? before;
}

/**
 * Which side answers a history ending in `last`: a human's (user) message or a tool result → side A; on a dual_ai
 * agent, side A's message → side B. Null: nothing is due (the fork waits, like a thread after a reply).
 */
function replySide(last: MessageRecord | null, dual: boolean): Side | null {
  if (!last) return null;
  if (last.role === "user") return "a";
  if (last.role === "tool") return last.side ?? "a";
  if (last.role === "assistant" && dual) return "b";
  return null;
}

/** The origin's children spawned by the copied history (by their spawning tool call), as references. */
async function referencedChildren(deps: RuntimeDeps, source: ThreadRecord, copied: MessageRecord[]): Promise<ForkOrigin["children"]> {
  const calls = new Set(copied.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id)));
  const entries = await deps.persistence.subagents.listByParent(source.id);
  return entries
    .filter((e) => e.toolCallId !== null && calls.has(e.toolCallId))
    .map((e) => ({ childId: e.childId, name: e.name, title: e.title, description: e.description, resumable: e.resumable, status: e.status, toolName: e.toolName }));
}

/** The origin's files (attachments the copied messages name live there), copied to the fork. */
async function copyFiles(deps: RuntimeDeps, fromId: string, toId: string): Promise<void> {
  const files = deps.persistence.files;
  for (const f of await files.list(fromId, "/")) {
    if (f.isDirectory) {
      await files.mkdir(toId, f.path);
      continue;
    }
    const data = await files.read(fromId, f.path);
    if (data) await files.write(toId, f.path, data, { mimeType: f.mimeType, metadata: f.metadata, sourceThreadId: fromId, sourcePath: f.path });
  }
}
