import type { PrismaClient } from "../client";
import { inChunks } from "./in-chunks";
import { inspectorTreeQueries, MAX_TREE_NODES } from "./inspector-tree";

/** One LLM request of a subtree's timeline (no request or response bodies). */
export interface LlmSpanRow {
  id: string;
  threadId: string;
  side: string | null;
  step: number | null;
  modelName: string;
  attempt: number;
  status: string;
  error: string | null;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cost: number;
  latencyMs: number | null;
  ttftMs: number | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/** A `tool.started` or `tool.completed` event. */
export interface ToolEventRow {
  threadId: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

const spanColumns = {
  id: true,
  threadId: true,
  side: true,
  step: true,
  modelName: true,
  attempt: true,
  status: true,
  error: true,
  inputTokens: true,
  outputTokens: true,
  cachedTokens: true,
  cost: true,
  latencyMs: true,
  ttftMs: true,
  startedAt: true,
  finishedAt: true,
} as const;

/** The inspector's timeline reads: a subtree's threads, their LLM requests and their tool events, oldest first. */
export function inspectorTimelineQueries(prisma: PrismaClient) {
  return {
    /** A thread and all its descendants with agent and name (one recursive query, then one per 500 threads). */
    async subtreeThreads(rootId: string, max = MAX_TREE_NODES): Promise<{ rows: { id: string; agentId: string; name: string | null }[]; truncated: boolean }> {
      const { ids, truncated } = await inspectorTreeQueries(prisma).subtreeIds(rootId, max);
      const rows = await inChunks(ids, (chunk) => prisma.thread.findMany({ where: { id: { in: chunk } }, select: { id: true, agentId: true, name: true } }));
      return { rows, truncated };
    },
    /** The LLM requests of these threads, oldest first (at most `max` per 500 threads). */
    llmSpans(ids: string[], max: number): Promise<LlmSpanRow[]> {
      return inChunks(ids, (chunk) =>
        prisma.llmRequestLog.findMany({
          where: { threadId: { in: chunk } },
          orderBy: [{ startedAt: "asc" }, { id: "asc" }],
          take: max,
          select: spanColumns,
        }),
      );
    },
    /** The tool start and end events of these threads, in log order (at most `max` per 500 threads). */
    toolEvents(ids: string[], max: number): Promise<ToolEventRow[]> {
      return inChunks(ids, (chunk) =>
        prisma.threadEvent.findMany({
          where: { threadId: { in: chunk }, type: { in: ["tool.started", "tool.completed"] } },
          orderBy: { seq: "asc" },
          take: max,
          select: { threadId: true, type: true, data: true, createdAt: true },
        }),
      );
    },
  };
}
