import type { Emit } from "../events/publisher";
import { freePath } from "../files/attachments";
import { baseName, normalizePath } from "../files/paths";
import { nowMicros } from "../ids";
import { toSpecMessage } from "../messages/to-spec";
import type { Stores, ThreadRecord } from "../ports";
import { blockingResultText, completionText, failureText } from "./texts";

export interface SessionOutcome {
  ok: boolean;
  /** The mapped result or failure details. */
  message: string;
  /** Attachment paths in the child's filesystem. */
  attachments: string[];
}

/**
 * Child → parent, in the same transaction that ends the child's session, so a result reaches its parent exactly once
 * (design.md §4). Returned attachments are copied into the parent (new parent-local paths). A parent tool call still
 * waiting on this child (blocking) gets the result as its tool result; otherwise, with implicit communication, the
 * parent receives the queued silent message. A non-resumable child is terminated after it reports. Returns the parent
 * to schedule, if any.
 */
export async function reportSessionEnd(tx: Stores, emit: Emit, child: ThreadRecord, outcome: SessionOutcome): Promise<string | null> {
  const entry = await tx.subagents.get(child.id);
  if (!entry) return null;
  const status = outcome.ok ? (entry.resumable ? "idle" : "terminated") : "failed";
  const parent = await tx.threads.get(entry.parentId);
  if (!entry.resumable) {
    await tx.threads.update(child.id, { status: "terminated", terminatedAt: nowMicros() });
    await tx.queue.rejectPending(child.id);
    await emit(child.id, { type: "thread.status", status: "terminated", stopReason: child.stopReason });
  }
  await tx.subagents.update(child.id, { status, reportedAt: new Date() });
  if (!parent || parent.status === "terminated") return null;
  await emit(parent.id, { type: "subagent.updated", childId: child.id, name: entry.name, status, change: outcome.ok ? "completed" : "failed" });

  const copied: string[] = [];
  const notFound: string[] = [];
  for (const raw of outcome.attachments) {
    let from: string;
    try {
      from = normalizePath(raw);
    } catch {
      notFound.push(raw);
      continue;
    }
    const st = await tx.files.stat(child.id, from);
    const data = st && !st.isDirectory ? await tx.files.read(child.id, from) : null;
    if (!st || !data) {
      notFound.push(from);
      continue;
    }
    const to = await freePath(tx.files, parent.id, `/attachments/${baseName(from)}`);
    await tx.files.write(parent.id, to, data, { mimeType: st.mimeType, sourceThreadId: child.id, sourcePath: from });
    copied.push(to);
  }
  const details = notFound.length > 0 ? `${outcome.message}\n\n(Attachments not found in the subagent's files: ${notFound.join(", ")})` : outcome.message;

  const waiting = entry.blocking && entry.toolCallId ? await pendingCall(tx, parent.id, entry.toolCallId) : null;
  if (waiting) {
    const msg = await tx.messages.append(parent.id, {
      role: "tool",
      content: blockingResultText(child.id, details, copied),
      name: entry.toolName,
      toolCalls: null,
      toolCallId: entry.toolCallId,
      toolStatus: outcome.ok ? "success" : "error",
      reasoningContent: null,
      attachments: copied.map((path) => ({ path, name: baseName(path) })),
      silent: false,
      depth: 0,
      side: waiting.side,
      metadata: { subagent_id: child.id, subagent_event: outcome.ok ? "completed" : "failed" },
      subagentId: child.id,
    });
    await emit(parent.id, { type: "message.created", message: toSpecMessage(msg) });
  } else if (entry.parentCommunication === "implicit") {
    const q = await tx.queue.enqueue(parent.id, {
      role: "user",
      content: outcome.ok ? completionText(child.id, details, copied) : failureText(child.id, details, copied),
      attachments: copied.map((path) => ({ path, name: baseName(path) })),
      silent: true,
      metadata: { subagent_id: child.id, subagent_event: outcome.ok ? "completed" : "failed" },
    });
    await emit(parent.id, { type: "queue.enqueued", queueId: q.id, role: "user" });
  } else {
    return null;
  }
  if (parent.status !== "running") {
    await tx.threads.update(parent.id, { status: "running" });
    await emit(parent.id, { type: "thread.status", status: "running", stopReason: parent.stopReason });
  }
  return parent.id;
}

/** The parent's tool call `toolCallId`, when it has no result yet (a blocking call waiting on the child). */
async function pendingCall(tx: Stores, parentId: string, toolCallId: string): Promise<{ side: "a" | "b" } | null> {
  const messages = await tx.messages.list(parentId, { includeSilent: true, order: "desc", limit: 500 });
  if (messages.some((m) => m.role === "tool" && m.toolCallId === toolCallId)) return null;
  const call = messages.find((m) => (m.toolCalls ?? []).some((c) => c.id === toolCallId));
  return call ? { side: call.side ?? "a" } : null;
}
