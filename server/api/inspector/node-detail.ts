import { toRegistryEntry } from "@/server/runtime/state/subagent-members";
import { registryMessage } from "@/server/runtime/subagents/texts";
import { toSpecMessage } from "@/server/runtime/kernel/to-spec";
import type { App } from "../app-context";
import { threadView } from "../threads/views";
import { configuredMode } from "./modes";

const MESSAGES = 400;

/** Messages of the parent about this child: its reports (silent, `subagent_id`) and the tool result of its call. */
async function parentExchange(app: App, parentId: string, childId: string, toolCallId: string | null, blocking: boolean) {
  const rows = await app.queries.inspectorNode.parentExchange(parentId, childId, toolCallId);
  return rows.map((m) => ({
    id: m.id,
    role: m.role,
    content: m.content,
    silent: m.silent,
    createdAt: Number(m.createdAt) / 1000,
    /**
     * `notify` (state.notifyParent), `tool_result` (a blocking call's result), `initiated` (the tool result of a
     * background spawn) or `report` (a queued completion or failure).
     */
    kind:
      (m.metadata as { subagent_event?: unknown } | null)?.subagent_event === "notify"
        ? "notify"
        : m.toolCallId && m.toolCallId === toolCallId
          ? blocking
            ? "tool_result"
            : "initiated"
          : "report",
  }));
}

/**
 * Everything the inspector shows for one thread of a tree: the thread (env secrets masked), its agent's side labels,
 * its entry in its parent's registry, its conversation (silent messages included), what it sent to its parent, its
 * files, queue, scheduled effects, its own child registry (data and the system message text the model sees) and its
 * open scoped-variable requests.
 */
export async function nodeDetail(app: App, threadId: string) {
  const t = await app.runtime.getThread(threadId);
  const p = app.persistence;
  const [env, total, rows, entry, children, files, queue, effects, requests] = await Promise.all([
    p.env.list("thread", t.id),
    p.messages.count(t.id, { includeSilent: true }),
    p.messages.list(t.id, { includeSilent: true, order: "desc", limit: MESSAGES }),
    p.subagents.get(t.id),
    p.subagents.listByParent(t.id),
    p.files.list(t.id, "/"),
    app.queries.inspectorNode.queuedMessages(t.id),
    p.effects.list(t.id),
    app.queries.openVariableRequests([t.id]),
  ]);
  const snap = app.registry.current();
  const agent = snap.agents.get(t.agentId);
  const parent = t.parentId ? await p.threads.get(t.parentId) : null;
  const mode = configuredMode(snap, parent?.agentId ?? null, t.agentId);
  return {
    thread: threadView(t, env),
    agent: {
      name: t.agentId,
      title: agent?.definition.title ?? t.agentId,
      type: agent?.definition.type ?? null,
      labels: { a: agent?.sides.a.label ?? "Side A", b: agent?.sides.b?.label ?? "Side B" },
    },
    entry: entry ? { ...toRegistryEntry(entry), toolName: entry.toolName, ...mode } : null,
    messages: rows.reverse().map((m) => ({ ...toSpecMessage(m), seq: m.seq, side: m.side })),
    totalMessages: total,
    toParent: parent && entry ? await parentExchange(app, parent.id, t.id, entry.toolCallId, entry.blocking) : [],
    files: files
      .filter((f) => !f.isDirectory)
      .map((f) => ({
        path: f.path,
        size: f.size,
        mimeType: f.mimeType,
        sourceThreadId: f.sourceThreadId,
        sourcePath: f.sourcePath,
        createdAt: f.createdAt.getTime(),
      })),
    queue: queue.map((q) => ({
      id: q.id,
      seq: q.seq,
      role: q.role,
      content: q.content,
      silent: q.silent,
      status: q.status,
      createdAt: q.createdAt.getTime(),
    })),
    effects: effects.map((e) => ({
      id: e.id,
      name: e.name,
      args: e.args,
      runAt: e.runAt.getTime(),
      status: e.status,
      attempts: e.attempts,
      lastError: e.lastError,
    })),
    registry: {
      entries: children.map(toRegistryEntry),
      systemMessage: registryMessage(children),
    },
    variableRequests: requests.map((r) => ({
      requestId: r.id,
      agent: r.agent,
      missing: r.missing,
      required: r.required,
      endpoint: `/api/threads/${t.id}/variables/${r.id}`,
    })),
  };
}

export type NodeDetail = Awaited<ReturnType<typeof nodeDetail>>;
