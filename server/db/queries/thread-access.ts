import type { PrismaClient } from "../client";

/** What the API's authorization rules read: who owns a thread, which of some threads a user owns. */
export function threadAccessQueries(prisma: PrismaClient) {
  return {
    /** The thread's owner (null: no owner, local mode), or undefined when the thread does not exist. */
    async ownerOf(threadId: string): Promise<string | null | undefined> {
      const row = await prisma.thread.findUnique({ where: { id: threadId }, select: { userId: true } });
      return row ? row.userId : undefined;
    },
    /** Of the given threads, the ids of those `userId` owns. */
    async ownedBy(userId: string, ids: string[]): Promise<string[]> {
      const rows = await prisma.thread.findMany({ where: { id: { in: ids }, userId }, select: { id: true } });
      return rows.map((r) => r.id);
    },
    /** The thread that made a request log, or null when there is no such log. */
    async threadOfLog(logId: string): Promise<string | null> {
      const row = await prisma.llmRequestLog.findUnique({ where: { id: logId }, select: { threadId: true } });
      return row?.threadId ?? null;
    },
  };
}
