import type { ParsedToolDefinition, ToolResult } from "@/server/spec";
import { redactDeep } from "../env/redact";
import type { ResolvedToolEntry } from "../definitions";
import { toolError, type ToolCallContext } from "../kernel/tool-call-context";
import type { ToolApprovalRecord, ToolCallRecord } from "../ports";
import { createThreadState } from "../state/thread-state";
import { approvalPath, expireApproval } from "./approval-requests";

/**
 * What a call of a tool with `approval` may do now: run (with the approver's arguments when they edited them), wait
 * for a decision (the thread stops before running it), or take a result without running (denied, expired).
 */
export type ApprovalGate =
  | { kind: "run"; args?: Record<string, unknown>; approval?: ToolApprovalRecord }
  | { kind: "wait" }
  | { kind: "result"; result: ToolResult; approval: ToolApprovalRecord };

const RUN: ApprovalGate = { kind: "run" };

/**
 * The approval gate of one call. Tools without `approval` always run (the spec's behaviour, unchanged). The decision
 * is durable: a request is a row written before the thread stops, and a decision is read from it, so a restart
 * while waiting, or between the decision and the run, loses nothing.
 */
export async function approvalGate(
  tc: ToolCallContext,
  call: ToolCallRecord,
  entry: Extract<ResolvedToolEntry, { kind: "tool" }>,
  args: Record<string, unknown>,
): Promise<ApprovalGate> {
  const tool = tc.ctx.defs.tool(entry.name);
  if (!tool?.approval || !tc.assistantMessage) return RUN;
  const approvals = tc.deps.persistence.approvals;
  const existing = await approvals.get(tc.assistantMessage.id, call.id);
  if (existing) return decided(tc, existing, tool);
  if (!(await needsApproval(tc, call, entry, tool, args))) return RUN;
  await requestApproval(tc, call, args, tool.approvalTimeout);
  return { kind: "wait" };
}

async function decided(tc: ToolCallContext, a: ToolApprovalRecord, tool: ParsedToolDefinition): Promise<ApprovalGate> {
  if (a.status === "approved") return { kind: "run", args: a.decidedArgs ?? a.args, approval: a };
  if (a.status === "denied") return { kind: "result", result: deniedResult(a), approval: a };
  if (a.status === "expired" || (a.expiresAt && a.expiresAt.getTime() <= Date.now())) {
    if (a.status === "pending") await expireApproval(tc.deps, a, { schedule: false });
    return { kind: "result", result: expiredResult(a, tool.approvalTimeout), approval: a };
  }
  return { kind: "wait" };
}

/** `approval: 'always'`, or what the tool's function says for these (validated) arguments. A throw asks a human. */
async function needsApproval(
  tc: ToolCallContext,
  call: ToolCallRecord,
  entry: Extract<ResolvedToolEntry, { kind: "tool" }>,
  tool: ParsedToolDefinition,
  args: Record<string, unknown>,
): Promise<boolean> {
  const approval = tool.approval;
  if (approval === "always" || approval === undefined) return approval === "always";
  let validated = args;
  if (tool.args) {
    const r = (tool.args as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(args);
    // Invalid arguments never run: the tool call answers with the validation error, no human needed.
    if (!r.success) return false;
    validated = (r.data ?? {}) as Record<string, unknown>;
  }
  const scope = { ...tc, toolConfigEnv: entry.config.env, options: entry.config.options, pending: [] as Promise<unknown>[], run: { toolCallId: call.id, attempt: 0 } };
  try {
    return (await approval(createThreadState(scope), validated)) === true;
  } catch (err) {
    tc.deps.log("warn", `the approval function of tool ${entry.name} threw; the call waits for a human`, {
      threadId: tc.thread.id,
      error: err instanceof Error ? err.message : String(err),
    });
    return true;
  }
}

/**
 * Store the request and announce it (on the thread and every ancestor, with the path), in one transaction; with a
 * timeout, a run of the thread is queued for when it expires.
 */
async function requestApproval(tc: ToolCallContext, call: ToolCallRecord, args: Record<string, unknown>, timeoutMs: number | undefined): Promise<void> {
  const path = await approvalPath(tc.deps, tc.thread.id);
  const expiresAt = timeoutMs !== undefined ? new Date(Date.now() + timeoutMs) : null;
  await tc.deps.events.commit(async (tx, emit) => {
    const a = await tx.approvals.create({
      threadId: tc.thread.id,
      messageId: tc.assistantMessage.id,
      toolCallId: call.id,
      toolName: call.function.name,
      args,
      expiresAt,
    });
    if (expiresAt) await tx.work.enqueue({ kind: "run", threadId: tc.thread.id, runAt: expiresAt, dedupeKey: `approval-expiry:${a.id}` });
    const event = {
      type: "tool.approval_requested" as const,
      approvalId: a.id,
      threadId: tc.thread.id,
      toolCallId: call.id,
      name: call.function.name,
      arguments: JSON.stringify(redactDeep(args, tc.ctx.secrets)),
      expiresAt: expiresAt?.toISOString() ?? null,
      path,
    };
    for (const hop of path) await emit(hop.threadId, event);
  });
}

/** The tool error of a denied call: the model reads why, and the approver's note. */
export function deniedResult(a: Pick<ToolApprovalRecord, "toolName" | "note">): ToolResult {
  const note = a.note?.trim();
  return toolError(`A human denied this call of ${a.toolName}; it did not run.${note ? ` Their note: ${note}` : " They left no note."}`, {
    error_code: "approval_denied",
  });
}

/** The tool error of a request that expired: a denial that says so. */
export function expiredResult(a: Pick<ToolApprovalRecord, "toolName">, timeoutMs: number | undefined): ToolResult {
  const after = timeoutMs !== undefined ? ` after ${formatDuration(timeoutMs)}` : "";
  return toolError(`The approval request for this call of ${a.toolName} expired${after} without a decision, so it was denied and did not run.`, {
    error_code: "approval_expired",
  });
}

function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000) return `${Math.round(ms / 100) / 10} s`;
  return `${ms} ms`;
}

/** What the tool message of a decided call keeps beside its result (the Inspector and the chat show it). */
export function approvalMetadata(a: ToolApprovalRecord | undefined): Record<string, unknown> | null {
  if (!a) return null;
  return {
    approval: {
      id: a.id,
      decision: a.status,
      edited: a.decidedArgs !== null,
      ...(a.decidedArgs !== null ? { original_args: a.args, args: a.decidedArgs } : {}),
      note: a.note,
      decided_by: a.decidedBy,
    },
  };
}
