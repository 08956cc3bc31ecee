import type { MessageRecord, NewMessage } from "../ports";

/**
 * The record of a message appended as `m`: what a read of its row returns. Absent optional fields read as null, an
 * empty attachment list as none. JSON fields are taken as given (a store passes the copies it read back from the text
 * it wrote).
 */
export function appendedRecord(m: NewMessage, at: { id: string; threadId: string; seq: number; createdAt: number }): MessageRecord {
  return {
    id: at.id,
    threadId: at.threadId,
    seq: at.seq,
    role: m.role,
    content: m.content,
    name: m.name ?? null,
    toolCalls: m.toolCalls ?? null,
    toolCallId: m.toolCallId ?? null,
    toolStatus: m.toolStatus ?? null,
    reasoningContent: m.reasoningContent ?? null,
    attachments: m.attachments && m.attachments.length > 0 ? m.attachments : null,
    silent: m.silent === true,
    depth: m.depth,
    side: m.side ?? null,
    metadata: m.metadata ?? null,
    subagentId: m.subagentId ?? null,
    createdAt: Number(at.createdAt),
  };
}
