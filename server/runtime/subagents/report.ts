import { redactDeep, secretValues } from "../env/redact";
import type { SecretBox } from "../env/secret-box";
import type { Emit } from "../events/publisher";
import { freePath } from "../files/attachments";
import { baseName, normalizePath } from "../files/paths";
import { nowMicros } from "../ids";
import { toSpecMessage } from "../kernel/to-spec";
import type { AttachmentRecord, Stores, SubagentRecord, ThreadRecord } from "../ports";
import { blockingResultText, completionText, failureText, terminatedText } from "./texts";

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
 * parent receives the queued silent message. A non-resumable child is terminated after it reports. The text is
 * redacted with the parent's secrets before it is stored (design.md §4). Returns the parent to schedule, if any.
 */
export async function reportSessionEnd(tx: Stores, emit: Emit, child: ThreadRecord, outcome: SessionOutcome, box: SecretBox | null): Promise<string | null> {
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

  const secrets = await parentSecrets(tx, parent, box);
  const attachments = copied.map((path) => ({ path, name: baseName(path) }));
  const event = outcome.ok ? "completed" : "failed";
  const waiting = entry.blocking && entry.toolCallId ? await pendingCall(tx, parent.id, entry.toolCallId) : null;
  if (waiting) {
    const text = redactDeep(blockingResultText(child.id, details, copied), secrets);
    await answerCall(tx, emit, parent.id, entry, waiting, { ok: outcome.ok, text, attachments, event });
  } else if (entry.parentCommunication === "implicit") {
    const text = outcome.ok ? completionText(child.id, details, copied) : failureText(child.id, details, copied);
    const q = await tx.queue.enqueue(parent.id, {
      role: "user",
      content: redactDeep(text, secrets),
      attachments,
      silent: true,
      metadata: { subagent_id: child.id, subagent_event: event },
    });
    await emit(parent.id, { type: "queue.enqueued", queueId: q.id, role: "user" });
  } else {
    return null;
  }
  await wakeParent(tx, emit, parent);
  return parent.id;
}

/**
 * A blocking child that ended without reporting (terminated): the parent's call still waiting on it gets a tool error,
 * so the parent can go on. Returns the parent to schedule, if a call was answered.
 */
export async function answerTerminatedChild(tx: Stores, emit: Emit, entry: SubagentRecord): Promise<string | null> {
  if (!entry.blocking || !entry.toolCallId) return null;
  const parent = await tx.threads.get(entry.parentId);
  if (!parent || parent.status === "terminated") return null;
  const waiting = await pendingCall(tx, parent.id, entry.toolCallId);
  if (!waiting) return null;
  const text = blockingResultText(entry.childId, terminatedText(entry.childId), []);
  await answerCall(tx, emit, parent.id, entry, waiting, { ok: false, text, attachments: [], event: "terminated" });
  await wakeParent(tx, emit, parent);
  return parent.id;
}

/** Store the waiting call's tool result (the child's answer) and announce it like any other tool result. */
async function answerCall(
  tx: Stores,
  emit: Emit,
  parentId: string,
  entry: SubagentRecord,
  waiting: PendingCall,
  r: { ok: boolean; text: string; attachments: AttachmentRecord[]; event: string },
): Promise<void> {
  const msg = await tx.messages.append(parentId, {
    role: "tool",
    content: r.text,
    name: waiting.name,
    toolCalls: null,
    toolCallId: entry.toolCallId,
    toolStatus: r.ok ? "success" : "error",
    reasoningContent: null,
    attachments: r.attachments,
    silent: false,
    depth: 0,
    side: waiting.side,
    metadata: { subagent_id: entry.childId, subagent_event: r.event },
    subagentId: entry.childId,
  });
  await emit(parentId, { type: "message.created", message: toSpecMessage(msg) });
  await emit(parentId, {
    type: "tool.completed",
    toolCallId: entry.toolCallId!,
    name: waiting.name,
    status: r.ok ? "success" : "error",
    durationMs: Math.max(0, Math.round((nowMicros() - waiting.calledAt) / 1000)),
    messageId: msg.id,
  });
}

async function wakeParent(tx: Stores, emit: Emit, parent: ThreadRecord): Promise<void> {
  if (parent.status === "running") return;
  await tx.threads.update(parent.id, { status: "running" });
  await emit(parent.id, { type: "thread.status", status: "running", stopReason: parent.stopReason });
}

/** The plain values of the secrets visible to the parent (thread, user and instance env). */
async function parentSecrets(tx: Stores, parent: ThreadRecord, box: SecretBox | null): Promise<string[]> {
  if (!box) return [];
  const { thread, user, instance } = await tx.env.visible(parent.id, parent.userId);
  return secretValues([...thread, ...user, ...instance], box);
}

/** A parent tool call waiting on a child: its side, when it was made (µs), and the tool called. */
interface PendingCall {
  side: "a" | "b";
  calledAt: number;
  name: string;
}

/** The parent's tool call `toolCallId`, when it has no result yet (a blocking call waiting on the child). */
async function pendingCall(tx: Stores, parentId: string, toolCallId: string): Promise<PendingCall | null> {
  const messages = await tx.messages.list(parentId, { includeSilent: true, order: "desc", limit: 500 });
  if (messages.some((m) => m.role === "tool" && m.toolCallId === toolCallId)) return null;
  const call = messages.find((m) => (m.toolCalls ?? []).some((c) => c.id === toolCallId));
  const fn = call?.toolCalls?.find((c) => c.id === toolCallId)?.function.name;
  return call && fn ? { side: call.side ?? "a", calledAt: call.createdAt, name: fn } : null;
}
