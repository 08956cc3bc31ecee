import type { ToolApprovalRecord, ToolApprovalStatus, ToolApprovalStore } from "@/server/runtime/ports";
import type { Db } from "../client";
import type { ToolApproval } from "../generated/prisma/client";
import { parseJsonColumn, parseOptionalJsonColumn, toJsonColumn, toNullableJsonColumn } from "../json";
import { objectSchema } from "./row-schemas";

const STATUSES: readonly ToolApprovalStatus[] = ["pending", "approved", "denied", "expired"];

export function toApproval(r: ToolApproval): ToolApprovalRecord {
  const ref = (field: string) => ({ model: "ToolApproval", field, id: r.id });
  return {
    id: r.id,
    threadId: r.threadId,
    messageId: r.messageId,
    toolCallId: r.toolCallId,
    toolName: r.toolName,
    args: parseJsonColumn(objectSchema, r.args, ref("args")),
    status: (STATUSES as string[]).includes(r.status) ? (r.status as ToolApprovalStatus) : "pending",
    decidedArgs: parseOptionalJsonColumn(objectSchema, r.decidedArgs, ref("decidedArgs")) ?? null,
    note: r.note,
    decidedBy: r.decidedBy,
    expiresAt: r.expiresAt,
    decidedAt: r.decidedAt,
    createdAt: r.createdAt,
  };
}

/** Tool calls held for a human decision (`ToolApproval` rows). */
export function toolApprovalStore(db: Db): ToolApprovalStore {
  return {
    async create(input) {
      const existing = await db.toolApproval.findUnique({ where: { messageId_toolCallId: { messageId: input.messageId, toolCallId: input.toolCallId } } });
      if (existing) return toApproval(existing);
      const row = await db.toolApproval.create({
        data: {
          threadId: input.threadId,
          messageId: input.messageId,
          toolCallId: input.toolCallId,
          toolName: input.toolName,
          args: toJsonColumn(input.args, { model: "ToolApproval", field: "args" }),
          expiresAt: input.expiresAt,
        },
      });
      return toApproval(row);
    },
    async get(messageId, toolCallId) {
      const row = await db.toolApproval.findUnique({ where: { messageId_toolCallId: { messageId, toolCallId } } });
      return row ? toApproval(row) : null;
    },
    async listByThreads(threadIds, statuses) {
      if (threadIds.length === 0) return [];
      const rows = await db.toolApproval.findMany({
        where: { threadId: { in: threadIds }, ...(statuses ? { status: { in: [...statuses] } } : {}) },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      return rows.map(toApproval);
    },
    async decide(id, d) {
      const r = await db.toolApproval.updateMany({
        where: { id, status: "pending" },
        data: {
          status: d.status,
          decidedArgs: toNullableJsonColumn(d.decidedArgs ?? null, { model: "ToolApproval", field: "decidedArgs" }),
          note: d.note ?? null,
          decidedBy: d.decidedBy ?? null,
          decidedAt: new Date(),
        },
      });
      return r.count > 0;
    },
  };
}
