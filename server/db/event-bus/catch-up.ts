import type { EventLog } from "@/server/runtime/ports";
import type { PrismaClient } from "../client";
import type { EventCatchUp } from "./pg-event-bus";

/** The bus's catch-up reads through the app's own Prisma client: the event log, and the threads changed lately. */
export function prismaCatchUp(prisma: Pick<PrismaClient, "thread">, events: Pick<EventLog, "after">): EventCatchUp {
  return {
    readEvents: (threadId, afterSeq, limit) => events.after(threadId, afterSeq, limit),
    async threadSeqs(since, threadIds) {
      const rows = await prisma.thread.findMany({
        where: { OR: [{ updatedAt: { gte: since } }, ...(threadIds.length > 0 ? [{ id: { in: threadIds } }] : [])] },
        select: { id: true, eventSeq: true },
      });
      return rows.map((r) => ({ threadId: r.id, seq: r.eventSeq }));
    },
  };
}
