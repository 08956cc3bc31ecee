import type { Message } from "@/server/spec";
import type { MessageRecord } from "../ports";

/** A stored message in the spec's `Message` shape (snake_case, µs timestamps). */
export function toSpecMessage(m: MessageRecord): Message {
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
    metadata: m.metadata as Message["metadata"],
    subagent_id: m.subagentId,
  };
}
