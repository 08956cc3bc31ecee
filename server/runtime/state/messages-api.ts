import type { Message, ThreadState } from "@/server/spec";
import { redactForThread } from "../kernel/thread-secrets";
import { NotFoundError } from "../errors";
import { resolveAttachments } from "../files/attachments";
import { createMessage, updateMessage } from "../kernel/message-writer";
import { registryByChild, toSpecMessage } from "../kernel/to-spec";
import type { StateScope } from "../kernel/deps";

/** Message members of `ThreadState`; writes go through the message writer, so hooks and events apply. */
export function messagesApi(scope: StateScope): Pick<
  ThreadState,
  "getMessages" | "getMessage" | "injectMessage" | "queueMessage" | "updateMessage" | "deleteMessage"
> {
  const p = scope.deps.persistence;
  const id = scope.thread.id;
  const mustGet = async (messageId: string): Promise<Message> => {
    const m = await p.messages.get(messageId);
    if (!m || m.threadId !== id) throw new NotFoundError(`Message ${messageId} not found in thread ${id}`);
    return toSpecMessage(m);
  };
  return {
    async getMessages(o = {}) {
      const includeSilent = o.includeSilent ?? true;
      const total = await p.messages.count(id, { includeSilent });
      const rows = await p.messages.list(id, { limit: o.limit, offset: o.offset, order: o.order ?? "asc", includeSilent });
      const filtered = o.maxDepth === undefined ? rows : rows.filter((m) => m.depth <= o.maxDepth!);
      // The same subagent_* projections the REST API gives, from this thread's child registry.
      const registry = filtered.some((m) => m.subagentId) ? registryByChild(await p.subagents.listByParent(id)) : undefined;
      return { messages: filtered.map((m) => toSpecMessage(m, registry)), total, hasMore: (o.offset ?? 0) + rows.length < total };
    },
    async getMessage(messageId) {
      const m = await p.messages.get(messageId);
      if (!m || m.threadId !== id) return null;
      return toSpecMessage(m, m.subagentId ? registryByChild(await p.subagents.listByParent(id)) : undefined);
    },
    async injectMessage(input) {
      const attachments = await resolveAttachments(p.files, id, input.attachments);
      const side = input.role === "assistant" ? "a" : input.role === "tool" ? scope.side : input.role === "user" ? "b" : null;
      const m = await createMessage(scope, {
        role: input.role,
        content: input.content,
        name: input.name ?? null,
        toolCalls: input.tool_calls ?? null,
        toolCallId: input.tool_call_id ?? null,
        toolStatus: input.tool_status ?? null,
        reasoningContent: null,
        attachments,
        silent: input.silent ?? false,
        depth: 0,
        side: input.role === "tool" || input.role === "system" ? side : null,
        metadata: input.metadata ?? null,
        subagentId: typeof input.metadata?.subagent_id === "string" ? input.metadata.subagent_id : null,
      });
      return toSpecMessage(m);
    },
    async queueMessage(input) {
      await scope.deps.capabilities.enqueueMessage(scope.deps, id, {
        role: input.role,
        content: await redactForThread(scope.deps, scope.thread, input.content),
        attachments: await resolveAttachments(p.files, id, input.attachments),
        silent: input.silent,
        metadata: await redactForThread(scope.deps, scope.thread, input.metadata ?? null),
      });
    },
    async updateMessage(messageId, updates) {
      await mustGet(messageId);
      return toSpecMessage(await updateMessage(scope, messageId, updates));
    },
    async deleteMessage(messageId) {
      const m = await p.messages.get(messageId);
      if (!m || m.threadId !== id) return false;
      await scope.deps.events.commit(async (tx, emit) => {
        await tx.messages.delete(messageId);
        await emit(id, { type: "message.deleted", messageId });
      });
      return true;
    },
  };
}
