import type { PrismaClient } from "../client";

/** The request logs just before and after one request of the same thread, by start time (then id): prev/next. */
export async function requestLogNeighbors(
  prisma: PrismaClient,
  log: { id: string; threadId: string; startedAt: Date },
): Promise<{ prevId: string | null; nextId: string | null; index: number; total: number }> {
  const { id, threadId, startedAt } = log;
  const before = { threadId, OR: [{ startedAt: { lt: startedAt } }, { startedAt, id: { lt: id } }] };
  const after = { threadId, OR: [{ startedAt: { gt: startedAt } }, { startedAt, id: { gt: id } }] };
  const [prev, next, index, total] = await Promise.all([
    prisma.llmRequestLog.findFirst({
      where: before,
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    }),
    prisma.llmRequestLog.findFirst({
      where: after,
      orderBy: [{ startedAt: "asc" }, { id: "asc" }],
      select: { id: true },
    }),
    prisma.llmRequestLog.count({ where: before }),
    prisma.llmRequestLog.count({ where: { threadId } }),
  ]);
  return { prevId: prev?.id ?? null, nextId: next?.id ?? null, index, total };
}
