/**
 * Deleting a message of a thread from outside a step (the chat's "Delete", `DELETE /api/threads/:id/messages/:mid`),
 * keeping the history one a provider accepts: an assistant message goes with the tool results that answer its calls;
 * a tool result alone is refused (a call without its result is an invalid request), and so is any delete while the
 * thread runs (the step in flight reads that history). Each removal is a `message.deleted` event, in one transaction.
 */
import { ConflictError, NotFoundError } from "../errors";
import type { RuntimeDeps } from "../kernel/deps";

export async function deleteThreadMessage(deps: RuntimeDeps, threadId: string, messageId: string): Promise<{ deleted: string[] }> {
  const thread = await deps.persistence.threads.get(threadId);
  if (!thread) throw new NotFoundError(`Thread ${threadId} not found`);
  const message = await deps.persistence.messages.get(messageId);
  if (!message || message.threadId !== threadId) throw new NotFoundError(`Message ${messageId} not found in thread ${threadId}`);
  if (thread.status === "running" || deps.aborts.isRunning(threadId)) {
    throw new ConflictError("The thread is running: stop it (or wait until it is idle) before deleting its messages");
  }
  if (message.role === "tool") {
    throw new ConflictError("A tool result goes with the call that asked for it: delete the assistant message that made the call");
  }
  const ids = [messageId];
  const calls = new Set((message.toolCalls ?? []).map((c) => c.id));
  if (calls.size > 0) {
    const later = await deps.persistence.messages.list(threadId, { includeSilent: true, afterSeq: message.seq });
    for (const m of later) if (m.role === "tool" && m.toolCallId && calls.has(m.toolCallId)) ids.push(m.id);
  }
  await deps.events.commit(async (tx, emit) => {
    for (const id of ids) {
      await tx.messages.delete(id);
      await emit(threadId, { type: "message.deleted", messageId: id });
    }
  });
  return { deleted: ids };
}
