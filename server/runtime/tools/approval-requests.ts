import { ConflictError, NotFoundError, ValidationError } from "../errors";
import type { RuntimeDeps } from "../kernel/deps";
import { threadSecrets } from "../kernel/thread-secrets";
import { redactDeep } from "../env/redact";
import type { ThreadRecord, ToolApprovalRecord, ToolApprovalStatus } from "../ports";

/** One hop from the root thread down to the thread that made a call. */
export interface ApprovalHop {
  threadId: string;
  agent: string;
}

/** An approval request as the API shows it: secret values masked, with the path from the root to its thread. */
export interface ApprovalView extends ToolApprovalRecord {
  path: ApprovalHop[];
}

export interface ApprovalDecision {
  decision: "approve" | "deny";
  args?: Record<string, unknown>;
  note?: string;
  /** The deciding user (null in local mode). */
  userId: string | null;
}

/** The threads from the root of `threadId`'s tree down to it. */
export async function approvalPath(deps: RuntimeDeps, threadId: string): Promise<ApprovalHop[]> {
  const hops: ApprovalHop[] = [];
  let id: string | null = threadId;
  while (id) {
    const t: ThreadRecord | null = await deps.persistence.threads.get(id);
    if (!t) break;
    hops.unshift({ threadId: t.id, agent: t.agentId });
    id = t.parentId;
  }
  return hops;
}

/** `threadId` and all its descendants (breadth first). */
async function subtree(deps: RuntimeDeps, threadId: string): Promise<string[]> {
  const ids = [threadId];
  for (let i = 0; i < ids.length; i++) {
    const { threads } = await deps.persistence.threads.list({ parentId: ids[i]!, limit: 10_000 });
    ids.push(...threads.map((t) => t.id));
  }
  return ids;
}

/**
 * The approval requests of a thread and its descendants (pending ones by default; null: all), oldest first, each with the path
 * from `threadId` down to the thread that made the call.
 */
export async function listApprovals(deps: RuntimeDeps, threadId: string, statuses: ToolApprovalStatus[] | null = ["pending"]): Promise<ApprovalView[]> {
  if (!(await deps.persistence.threads.get(threadId))) throw new NotFoundError(`Thread ${threadId} not found`);
  const rows = await deps.persistence.approvals.listByThreads(await subtree(deps, threadId), statuses ?? undefined);
  const secrets = await threadSecrets(deps, threadId);
  const out: ApprovalView[] = [];
  for (const row of rows) {
    // A pending call that got its answer another way (a user stop, a terminate) waits for nobody.
    if (row.status === "pending" && (await answeredWithout(deps, row))) continue;
    const full = await approvalPath(deps, row.threadId);
    const from = full.findIndex((h) => h.threadId === threadId);
    out.push({ ...redactDeep(row, secrets), path: full.slice(Math.max(0, from)) });
  }
  return out;
}

/**
 * Decide a pending request of the thread or one of its descendants: approve (the tool runs, with `args` instead of the
 * model's when given; validated against the tool's schema) or deny (the model gets a tool error with the note). The
 * decision is stored and announced in one transaction; then the calling thread is run.
 */
export async function decideApproval(deps: RuntimeDeps, threadId: string, toolCallId: string, input: ApprovalDecision): Promise<ApprovalView> {
  const all = await listApprovals(deps, threadId, null);
  const matches = all.filter((a) => a.toolCallId === toolCallId);
  if (matches.length === 0) throw new NotFoundError(`No approval request for tool call ${toolCallId} in thread ${threadId} or its subagents`);
  const a = matches.find((m) => m.status === "pending") ?? matches[matches.length - 1]!;
  if (a.status !== "pending") throw new ConflictError(`The approval request for tool call ${toolCallId} was already ${a.status}`);
  if (a.expiresAt && a.expiresAt.getTime() <= Date.now()) {
    await expireApproval(deps, a);
    throw new ConflictError(`The approval request for tool call ${toolCallId} expired at ${a.expiresAt.toISOString()}; it was denied`);
  }
  const decidedArgs = input.decision === "approve" && input.args !== undefined ? validateArgs(deps, a.toolName, input.args) : null;
  const status: "approved" | "denied" = input.decision === "approve" ? "approved" : "denied";
  const note = input.note?.trim() ? input.note.trim() : null;
  const path = await approvalPath(deps, a.threadId);
  const won = await deps.events.commit(async (tx, emit) => {
    if (!(await tx.approvals.decide(a.id, { status, decidedArgs, note, decidedBy: input.userId }))) return false;
    const event = { type: "tool.approval_resolved" as const, approvalId: a.id, threadId: a.threadId, toolCallId, name: a.toolName, decision: status, edited: decidedArgs !== null, note };
    for (const hop of path) await emit(hop.threadId, event);
    return true;
  });
  if (!won) throw new ConflictError(`The approval request for tool call ${toolCallId} was decided meanwhile`);
  await deps.schedule(a.threadId);
  return { ...a, status, decidedArgs, note, decidedBy: input.userId, decidedAt: new Date() };
}

/** Whether a pending request's call has a result already, or its thread ended (stopped or terminated meanwhile). */
async function answeredWithout(deps: RuntimeDeps, a: ToolApprovalRecord): Promise<boolean> {
  const p = deps.persistence;
  const [thread, call] = await Promise.all([p.threads.get(a.threadId), p.messages.get(a.messageId)]);
  if (!thread || thread.status === "terminated" || !call) return true;
  const later = await p.messages.list(a.threadId, { afterSeq: call.seq, includeSilent: true });
  return later.some((m) => m.role === "tool" && m.toolCallId === a.toolCallId);
}

/** Resolve a pending request whose time ran out as `expired` (announced like a decision). */
export async function expireApproval(deps: RuntimeDeps, a: ToolApprovalRecord, opts: { schedule: boolean } = { schedule: true }): Promise<void> {
  const path = await approvalPath(deps, a.threadId);
  await deps.events.commit(async (tx, emit) => {
    if (!(await tx.approvals.decide(a.id, { status: "expired" }))) return;
    const event = { type: "tool.approval_resolved" as const, approvalId: a.id, threadId: a.threadId, toolCallId: a.toolCallId, name: a.toolName, decision: "expired" as const, edited: false, note: null };
    for (const hop of path) await emit(hop.threadId, event);
  });
  if (opts.schedule) await deps.schedule(a.threadId);
}

/** The approver's arguments, checked with the tool's schema (a 400 naming `args.<field>` when they do not fit). */
function validateArgs(deps: RuntimeDeps, toolName: string, args: Record<string, unknown>): Record<string, unknown> {
  const tool = deps.definitions().tool(toolName);
  if (!tool?.args) return args;
  const schema = tool.args as { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
  const r = schema.safeParse(args);
  if (r.success) return args;
  const issues = (r.error?.issues ?? []).map((i) => ({ path: ["args", ...i.path.map(String)].join("."), message: i.message }));
  throw new ValidationError(`The edited arguments do not fit ${toolName}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
}
