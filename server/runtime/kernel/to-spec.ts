import type { Message } from "@/server/spec";
import type { MessageRecord, SubagentRecord } from "../ports";

/**
 * A stored message's `status`: every stored message is `completed` (an assistant message is stored once its step
 * ended; the text in flight travels only as stream events) except a tool message whose call failed, which is `failed`.
 */
function messageStatus(m: MessageRecord): Message["status"] {
  return m.role === "tool" && m.toolStatus === "error" ? "failed" : "completed";
}

/** The spec's `subagent_*` projection fields of a message about a child, from the parent's registry entry. */
export function subagentProjection(e: SubagentRecord | undefined): Partial<Message> {
  if (!e) return {};
  return {
    subagent_name: e.name,
    subagent_title: e.title,
    subagent_description: e.description,
    subagent_status: e.status,
    subagent_resumable: e.resumable,
    subagent_blocking: e.blocking,
    subagent_thread_name: e.threadName,
    subagent_spawn_group_id: e.spawnGroupId,
  };
}

/**
 * A stored message in the spec's `Message` shape (snake_case, µs timestamps). With the thread's child registry
 * (`SubagentRecord`s keyed by child id) it fills the `subagent_*` projections of messages about a child.
 */
export function toSpecMessage(m: MessageRecord, registry?: ReadonlyMap<string, SubagentRecord>): Message {
  return {
    id: m.id,
    thread_id: m.threadId,
    role: m.role,
    content: m.content,
    name: m.name,
    tool_calls: m.toolCalls,
    tool_call_id: m.toolCallId,
    tool_status: m.toolStatus,
    reasoning_content: m.reasoningContent,
    attachments: (m.attachments ?? []).map((a) => ({ path: a.path, name: a.name ?? a.path.split("/").pop() ?? a.path, mimeType: a.mimeType, size: a.size })) as Message["attachments"],
    silent: m.silent,
    depth: m.depth,
    created_at: m.createdAt,
    status: messageStatus(m),
    metadata: m.metadata as Message["metadata"],
    subagent_id: m.subagentId,
    ...subagentProjection(m.subagentId && registry ? registry.get(m.subagentId) : undefined),
  };
}

/** The registry argument of `toSpecMessage`: a thread's children keyed by child thread id. */
export function registryByChild(children: readonly SubagentRecord[]): Map<string, SubagentRecord> {
  return new Map(children.map((e) => [e.childId, e]));
}
