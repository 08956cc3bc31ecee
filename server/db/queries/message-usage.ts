import type { PrismaClient } from "../client";

export interface MessageUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cost: number;
  /** Requests that produced the message (retries and fallbacks included). */
  requests: number;
}

/** At most this many messages' usage per read (the newest ones: the conversation shows the latest first). */
const MAX_MESSAGES = 5_000;

/** Tokens and cost of the model requests behind each assistant message of a thread, by message id. */
export async function messageUsage(prisma: PrismaClient, threadId: string): Promise<Record<string, MessageUsage>> {
  const groups = await prisma.llmRequestLog.groupBy({
    by: ["messageId"],
    where: { threadId, messageId: { not: null } },
    _sum: { inputTokens: true, outputTokens: true, cachedTokens: true, cost: true },
    _count: { _all: true },
    _max: { startedAt: true },
    orderBy: { _max: { startedAt: "desc" } },
    take: MAX_MESSAGES,
  });
  const out: Record<string, MessageUsage> = {};
  for (const g of groups) {
    if (!g.messageId) continue;
    out[g.messageId] = {
      inputTokens: g._sum.inputTokens ?? 0,
      outputTokens: g._sum.outputTokens ?? 0,
      cachedTokens: g._sum.cachedTokens ?? 0,
      cost: g._sum.cost ?? 0,
      requests: g._count._all,
    };
  }
  return out;
}
