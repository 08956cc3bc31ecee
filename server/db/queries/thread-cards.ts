import type { ThreadRecord } from "@/server/runtime/ports";
import type { PrismaClient } from "../client";
import { toThreadRecord } from "../repositories/threads";

export interface ThreadStatusRow {
  id: string;
  status: string;
  agentId: string;
  name: string | null;
  stopReason: string | null;
}

/** What the chat's child-agent cards show: a thread's direct children, and the statuses of threads named in text. */
export function threadCardQueries(prisma: PrismaClient) {
  return {
    /** Direct children, oldest first (at most 1,000). */
    async children(parentId: string): Promise<ThreadRecord[]> {
      const rows = await prisma.thread.findMany({ where: { parentId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1_000 });
      return rows.map(toThreadRecord);
    },
    statuses(ids: string[]): Promise<ThreadStatusRow[]> {
      return prisma.thread.findMany({
        where: { id: { in: ids } },
        select: { id: true, status: true, agentId: true, name: true, stopReason: true },
      });
    },
  };
}
