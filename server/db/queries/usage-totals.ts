import type { PrismaClient } from "../client";

export interface UsageSums {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cost: number;
  requests: number;
}

export interface ThreadUsage extends UsageSums {
  threadId: string;
  agentId: string;
  name: string | null;
}

export interface ModelUsage extends UsageSums {
  model: string;
}

/** Ids of a thread and all its descendants (breadth first, at most `max`). */
async function subtreeIds(prisma: PrismaClient, rootId: string, max: number): Promise<string[]> {
  const ids = [rootId];
  let frontier = [rootId];
  while (frontier.length > 0 && ids.length < max) {
    const rows = await prisma.thread.findMany({ where: { parentId: { in: frontier } }, select: { id: true } });
    frontier = rows.map((r) => r.id);
    ids.push(...frontier);
  }
  return ids.slice(0, max);
}

type Sums = { inputTokens: number | null; outputTokens: number | null; cachedTokens: number | null; cost: number | null };
const sums = (s: Sums, requests: number): UsageSums => ({
  inputTokens: s.inputTokens ?? 0,
  outputTokens: s.outputTokens ?? 0,
  cachedTokens: s.cachedTokens ?? 0,
  cost: s.cost ?? 0,
  requests,
});

/** Tokens, cost and requests from the request logs of the given threads, per thread and per model. */
async function usageBreakdown(prisma: PrismaClient, ids: string[]): Promise<{ threads: ThreadUsage[]; models: ModelUsage[] }> {
  const sum = { inputTokens: true, outputTokens: true, cachedTokens: true, cost: true } as const;
  const [perThread, perModel, threads] = await Promise.all([
    prisma.llmRequestLog.groupBy({ by: ["threadId"], where: { threadId: { in: ids } }, _sum: sum, _count: { _all: true } }),
    prisma.llmRequestLog.groupBy({ by: ["modelName"], where: { threadId: { in: ids } }, _sum: sum, _count: { _all: true } }),
    prisma.thread.findMany({ where: { id: { in: ids } }, select: { id: true, agentId: true, name: true } }),
  ]);
  const info = new Map(threads.map((t) => [t.id, t]));
  return {
    threads: perThread.map((p) => ({
      threadId: p.threadId,
      agentId: info.get(p.threadId)?.agentId ?? "",
      name: info.get(p.threadId)?.name ?? null,
      ...sums(p._sum, p._count._all),
    })),
    models: perModel.map((m) => ({ model: m.modelName, ...sums(m._sum, m._count._all) })),
  };
}

/** The chat's usage panel: which threads a subtree holds, and their usage per thread and per model. */
export function usageQueries(prisma: PrismaClient) {
  return {
    subtreeIds: (rootId: string, max = 2_000) => subtreeIds(prisma, rootId, max),
    breakdown: (ids: string[]) => usageBreakdown(prisma, ids),
  };
}
