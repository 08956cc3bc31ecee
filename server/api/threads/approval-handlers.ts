import { z } from "zod";
import type { ApprovalView } from "@/server/runtime/tools/approval-requests";
import type { App } from "../app-context";
import { readJson, type RouteContext } from "../rest/router";

type Ctx = RouteContext<App>;

const STATUSES = ["pending", "approved", "denied", "expired"] as const;

const listQuery = z.object({
  status: z
    .string()
    .optional()
    .transform((s) => (s === undefined ? ["pending"] : s === "all" ? null : s.split(",").map((x) => x.trim())))
    .pipe(z.array(z.enum(STATUSES, { error: "status must be pending, approved, denied, expired (comma-separated) or all" })).nullable()),
});

/** The fields of a decision (`POST /api/threads/:id/approvals/:toolCallId`, and the UI's mutation). */
export const decisionFields = z.object({
  decision: z.enum(["approve", "deny"], { error: "decision must be 'approve' or 'deny'" }),
  args: z.record(z.string(), z.unknown(), { error: "args must be an object of the tool's arguments" }).optional(),
  note: z.string({ error: "note must be a string" }).max(4000, { error: "note must be at most 4000 characters" }).optional(),
});

/** Edited arguments only go with an approval. */
export const argsOnlyOnApprove = (b: { decision: string; args?: unknown }) => b.decision === "approve" || b.args === undefined;
const argsOnlyOnApproveError = { path: ["args"], error: "args can only be given with decision 'approve'" };

/** The body of `POST /api/threads/:id/approvals/:toolCallId`. */
export const decisionBody = decisionFields.strict().refine(argsOnlyOnApprove, argsOnlyOnApproveError);

/** The UI's decision input (the thread and call beside the fields). */
export const decisionInput = z
  .object({ threadId: z.string().min(1), toolCallId: z.string().min(1), ...decisionFields.shape })
  .refine(argsOnlyOnApprove, argsOnlyOnApproveError);

/** An approval request in the API's shape (snake_case, like the rest of the REST API). */
export function approvalJson(a: ApprovalView) {
  return {
    id: a.id,
    thread_id: a.threadId,
    message_id: a.messageId,
    tool_call_id: a.toolCallId,
    tool_name: a.toolName,
    arguments: a.args,
    status: a.status,
    decided_args: a.decidedArgs,
    note: a.note,
    decided_by: a.decidedBy,
    expires_at: a.expiresAt?.toISOString() ?? null,
    decided_at: a.decidedAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
    path: a.path.map((h) => ({ thread_id: h.threadId, agent_id: h.agent })),
  };
}

/** `GET /api/threads/:id/approvals[?status=pending|…|all]`: the requests of the thread and its descendants. */
export async function listApprovalsHandler({ params, url, app }: Ctx): Promise<Response> {
  const { status } = listQuery.parse({ status: url.searchParams.get("status") ?? undefined });
  const rows = await app.runtime.listApprovals(params.id!, status);
  return Response.json({ approvals: rows.map(approvalJson) });
}

/** `POST /api/threads/:id/approvals/:toolCallId` `{decision, args?, note?}`: decide; the calling thread runs on. */
export async function decideApprovalHandler({ params, request, app, caller }: Ctx): Promise<Response> {
  const body = decisionBody.parse(await readJson(request));
  const decided = await app.runtime.decideApproval(params.id!, params.toolCallId!, { ...body, userId: caller?.userId ?? null });
  return Response.json({ approval: approvalJson(decided) });
}
