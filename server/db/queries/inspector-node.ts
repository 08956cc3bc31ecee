import type { PrismaClient } from "../client";

/** A message of a parent thread about one of its children (a report, a notification or a tool result). */
export interface ParentExchangeRow {
  id: string;
  role: string;
  content: string | null;
  silent: boolean;
  /** µs */
  createdAt: bigint;
  metadata: unknown;
  toolCallId: string | null;
  name: string | null;
}

export interface QueuedMessageRow {
  id: string;
  seq: number;
  role: string;
  content: string;
  silent: boolean;
  status: string;
  createdAt: Date;
}

/** What the inspector's node detail reads beyond the runtime's stores. */
export function inspectorNodeQueries(prisma: PrismaClient) {
  return {
    /** Messages of the parent about this child: its reports (`subagent_id`) and the tool result of its call. */
    parentExchange(parentId: string, childId: string, toolCallId: string | null): Promise<ParentExchangeRow[]> {
      return prisma.message.findMany({
        where: { threadId: parentId, OR: [{ subagentId: childId }, ...(toolCallId ? [{ toolCallId }] : [])] },
        orderBy: { seq: "asc" },
        take: 200,
        select: { id: true, role: true, content: true, silent: true, createdAt: true, metadata: true, toolCallId: true, name: true },
      });
    },
    /** The thread's queue, newest first (at most 50). */
    queuedMessages(threadId: string): Promise<QueuedMessageRow[]> {
      return prisma.queuedMessage.findMany({
        where: { threadId },
        orderBy: { seq: "desc" },
        take: 50,
        select: { id: true, seq: true, role: true, content: true, silent: true, status: true, createdAt: true },
      });
    },
  };
}
