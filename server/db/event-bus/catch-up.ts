import type { EventLog } from "@/server/runtime/ports";
import type { PrismaClient } from "../client";
import type { EventCatchUp } from "./pg-event-bus";

/** The bus's catch-up reads through the app's own Prisma client: the event log, and the threads changed lately. */
export function prismaCatchUp(prisma: Pick<PrismaClient, "$queryRaw">, events: Pick<EventLog, "after">): EventCatchUp {
  return {
    readEvents: (threadId, afterSeq, limit) => events.after(threadId, afterSeq, limit),
    async threadSeqs(since, threadIds) {
      // `before`: the last event created before `since`; a thread's events after it are the ones a reconnect missed.
      const rows = await prisma.$queryRaw<{ threadId: string; seq: number; before: number }[]>`
        SELECT t."id" AS "threadId", t."eventSeq" AS "seq",
          COALESCE((SELECT max(e."seq") FROM "ThreadEvent" e WHERE e."threadId" = t."id" AND e."createdAt" < ${since}), 0)::int AS "before"
        FROM "Thread" t
        WHERE t."updatedAt" >= ${since} OR t."id" = ANY(${threadIds}::text[])`;
      return rows.map((r) => ({ threadId: r.threadId, seq: Number(r.seq), before: Number(r.before) }));
    },
  };
}
